import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, type Plugin } from 'vite';
import { stylesheetOf } from './scripts/antd-styles-paths.ts';
import { staticClosure } from './scripts/static-imports.ts';

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

/**
 * With BUNDLE_STATS=1, writes bundle-stats.json into the build: for each client chunk,
 * its modules and their rendered sizes (read by bench/js-breakdown.ts).
 */
function bundleStats(): Plugin {
  return {
    name: 'bundle-stats',
    apply: 'build',
    generateBundle(_options, bundle) {
      if (!process.env.BUNDLE_STATS || this.environment.name !== 'client') return;
      const chunks: Record<string, { size: number; modules: Record<string, number> }> = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const modules: Record<string, number> = {};
        for (const [id, module] of Object.entries(output.modules)) modules[relative(process.cwd(), id)] = module.renderedLength;
        chunks[output.fileName] = { size: output.code.length, modules };
      }
      const importers: Record<string, string[]> = {};
      for (const id of this.getModuleIds()) {
        const info = this.getModuleInfo(id);
        if (info) importers[relative(process.cwd(), id)] = info.importers.map((importer) => relative(process.cwd(), importer));
      }
      // Into the folder being built (scripts/build.ts sets BUILD_DIR); `build` points to it once the build is done.
      const dir = process.env.BUILD_DIR ?? 'build';
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/bundle-stats.json`, JSON.stringify(chunks));
      writeFileSync(`${dir}/bundle-importers.json`, JSON.stringify(importers));
    },
  };
}

/** The icons the app imports from '@ant-design/icons' (named imports in app/, found in the source). */
function appIconNames(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync('app', { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file)) continue;
    for (const match of readFileSync(`app/${file}`, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@ant-design\/icons'/g)) {
      for (const name of match[1]!.split(',')) if (name.trim()) names.add(name.trim());
    }
  }
  return names;
}

/**
 * Fewer, larger files on every page (decision 0014, "Shorter tasks after the
 * paint"). Split by which pages share them, a guest page came as ~38 files,
 * two thirds under 1 KB gzip (icons, small helpers), and each file costs the
 * phone's main thread a task of its own. Two groups:
 * - `shell`: what root.tsx imports statically (header, footer, session, API
 *   client, their helpers), with React and React Router: every page loads all
 *   of it anyway;
 * - `icons`: the icons the app uses and the icon component, once (≈ 10 KB gzip
 *   more than a guest page's own icons, 15 files fewer).
 */
function chunkGroups() {
  const shell = staticClosure(['app/root.tsx'], '.');
  const icons = appIconNames();
  const icon = /[\\/]@ant-design[\\/]icons(?:-svg)?[\\/]es[\\/](?:icons|asn)[\\/](\w+)\.js$/;
  return [
    {
      name: 'icons',
      priority: 2,
      test: (id: string) => {
        const match = icon.exec(id);
        return match ? icons.has(match[1]!) : /[\\/]@ant-design[\\/]icons[\\/]es[\\/]components[\\/]/.test(id);
      },
    },
    { name: 'shell', priority: 1, test: (id: string) => shell.has(id.split('?')[0]!) },
  ];
}

export default defineConfig({
  plugins: [antdRouteStyles(), reactRouter(), bundleStats()],
  build: {
    rolldownOptions: {
      output: { codeSplitting: { groups: chunkGroups() } },
      treeshake: {
        // antd's helper packages (@rc-component/*, @ant-design/*) do not say
        // in their package.json that they have no side effects, so a module
        // imported for one export kept every module its index re-exports
        // (antd's form context brought the whole of @rc-component/form and
        // its validator to every page). They have none (classes, hooks,
        // contexts); their CSS would be kept.
        moduleSideEffects: [{ test: /\/node_modules\/(@rc-component|@ant-design)\/.*\.[cm]?js$/, sideEffects: false }],
      },
    },
  },
  // The server build bundles its dependencies (antd and its CommonJS helpers
  // need Vite's interop); React and React Router stay external so the server
  // and the build share one copy.
  ssr: { noExternal: true, external: ['react', 'react-dom', 'react-router', '@react-router/node'] },
});
