// End-to-end tests in Debian's Chromium (no browser download here): the
// built app on a fresh SQLite file in demo mode, so the demo accounts exist.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_DB_FILE = process.env.E2E_DB_FILE ?? join(mkdtempSync(join(tmpdir(), 'visa-e2e-')), 'e2e.db');
process.env.E2E_DB_FILE = E2E_DB_FILE;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node --conditions=production --import tsx server/main.ts',
    url: `http://127.0.0.1:${PORT}/`,
    timeout: 60_000,
    reuseExistingServer: false,
    env: { APP_ENV: 'demo', NODE_ENV: 'production', PORT: String(PORT), HOST: '127.0.0.1', SQLITE_FILE: E2E_DB_FILE, LOG_LEVEL: 'warn' },
  },
});
