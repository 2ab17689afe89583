// A tiny stand-in for a React Router build (server/index.js and a few hashed
// client assets), enough for server/main.ts to start and serve the assets:
// the graceful-stop, start-up-check and safe-deploy tests use it instead of
// the real two-minute build. No page is rendered from it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SERVER_INDEX = `// fake build (server/test-support/fake-build.ts)
export const routes = {};
export const assets = { url: '/assets/manifest.js', version: 'fake', entry: { module: '/assets/entry.js', imports: [] }, routes: {} };
export const entry = { module: { default: () => new Response('fake build') } };
export const future = {};
export const publicPath = '/';
export const assetsBuildDirectory = 'client/assets';
export const basename = '/';
export const isSpaMode = false;
export const ssr = true;
export const prerender = [];
export const routeDiscovery = { mode: 'initial' };
`;

/** Writes a fake build into `dir` with these hashed assets (name → content) under client/assets/. */
export function writeFakeBuild(dir: string, assets: Record<string, string>): string {
  mkdirSync(join(dir, 'server'), { recursive: true });
  mkdirSync(join(dir, 'client', 'assets'), { recursive: true });
  writeFileSync(join(dir, 'server', 'index.js'), SERVER_INDEX);
  for (const [name, content] of Object.entries(assets)) writeFileSync(join(dir, 'client', 'assets', name), content);
  return dir;
}

export interface StartedServer {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/** Starts `node --import tsx server/main.ts` with this environment; resolves once it logged "ready" (with its port). */
export function startServer(env: Record<string, string>): Promise<StartedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, APP_ENV: 'test', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk) => (text += String(chunk)));
  child.stderr!.on('data', (chunk) => (text += String(chunk)));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const look = () => {
      const port = /"port":(\d+),"msg":"ready"/.exec(text)?.[1];
      if (port) {
        child.stdout!.off('data', look);
        resolve({ child, port: Number(port), output: () => text, exited });
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => reject(new Error(`server exited (${code}) before it was ready:\n${text}`)));
  });
}
