import { defineConfig } from 'vitest/config';

// Unit and API tests. The API suite runs on SQLite by default and on
// PostgreSQL when TEST_DATABASE_URL is set (see scripts/run-tests.mjs).
export default defineConfig({
  test: {
    include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'app/**/*.test.ts'],
    environment: 'node',
    // Migrations run once per run into a template that each test file copies (decision 0020).
    globalSetup: ['server/test-support/global-setup.ts'],
    // One worker runs every file in one module registry (decision 0042): importing
    // the server anew for each of ~110 files cost more CPU than the tests did.
    // Each file makes its own app, database and clock, so nothing is shared but code.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
