import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  // antd, its rc-* parts and dayjs locales are bundled into the server build so
  // Node never has to resolve their extension-less ESM imports.
  ssr: { noExternal: [/^antd/, /^@ant-design\//, /^rc-/, /^@rc-component\//, /^dayjs/, /^viewerjs/] },
});
