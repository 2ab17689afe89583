#!/usr/bin/env node
// `npm start`: install, build, serve, one step after the other, in one process
// that passes SIGINT and SIGTERM on to the step running (issue 23). As a shell
// chain (`npm install && npm run build && npm run serve`) a stop during the
// install or the build ended the shell and left its step running, orphaned;
// the serve step must get the signal too, for the graceful stop (server/main.ts).
// Node's built-ins only: it runs before the install.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

// npm sets npm_execpath to its own CLI; plain `npm` otherwise (started by hand).
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const steps = [
  ['install', '--no-audit', '--no-fund', '--include=dev'],
  ['run', 'build'],
  ['run', 'serve'],
];

let child = null;
let stoppedBy = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stoppedBy = signal;
    child?.kill(signal);
  });
}

for (const args of steps) {
  // Stopped between two steps: the next one does not start.
  if (stoppedBy) process.exit(128 + constants.signals[stoppedBy]);
  child = spawn(npm[0], [...npm.slice(1), ...args], { stdio: 'inherit' });
  const [code, signal] = await new Promise((resolve) => child.once('exit', (...outcome) => resolve(outcome)));
  child = null;
  if (code !== 0) process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
}
// The server stopped gracefully (exit 0).
process.exit(0);
