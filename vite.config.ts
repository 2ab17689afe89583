import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';
import { stylesheetOf } from './scripts/antd-styles-paths.ts';

/**
 * Links each route module (and root.tsx) to its antd stylesheet, generated
 * before the build by scripts/antd-styles.tsx, as if the module imported it:
 * React Router then lists it with the route's own CSS.
 */
function antdRouteStyles(): Plugin {
  const app = resolve('app');
  return {
    name: 'antd-route-styles',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0]!;
      if (!file.startsWith(`${app}/`) || !/\.tsx?$/.test(file)) return null;
      const stylesheet = stylesheetOf(`app/${relative(app, file)}`);
      if (!existsSync(stylesheet)) return null;
      return { code: `import ${JSON.stringify(`/${stylesheet}`)};\n${code}`, map: null };
    },
  };
}

export default defineConfig({
  plugins: [antdRouteStyles(), reactRouter()],
  // The server build bundles its dependencies (antd and its CommonJS helpers
  // need Vite's interop); React and React Router stay external so the server
  // and the build share one copy.
  ssr: { noExternal: true, external: ['react', 'react-dom', 'react-router', '@react-router/node'] },
});
