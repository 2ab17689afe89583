import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // BUILD_DIR lets parallel work build side by side without clobbering build/.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  ssr: true,
  // Every route's manifest comes with the first page (one cached file, ~6 KB
  // gzip) instead of being discovered after hydration: the discovery's router
  // update re-rendered the whole page once per part still waiting to hydrate
  // (HydrationBoundary), hundreds of renders on a country page (decision 0014).
  routeDiscovery: { mode: 'initial' },
  // Stated explicitly (today's v7 behaviour) until we adopt them one by one;
  // v8_middleware would change the load context that server/web/pages.ts builds.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
