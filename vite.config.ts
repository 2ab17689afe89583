import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  // The server build bundles its dependencies (antd and its CommonJS helpers
  // need Vite's interop); React and React Router stay external so the server
  // and the build share one copy.
  ssr: { noExternal: true, external: ['react', 'react-dom', 'react-router', '@react-router/node'] },
});
