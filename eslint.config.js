// Lint: TypeScript's recommended rules, React hooks, and the layout's boundaries
// (docs/decisions/0008-linter.md). Formatting is Prettier's (`npm run format`).
// The boundary zones are computed from the folders, so a new feature or module
// is covered the day it is created.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import orderLiterals from './scripts/lint/order-literals.mjs';

const folders = (dir) =>
  readdirSync(new URL(dir, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const features = folders('./app/features/');
const modules = folders('./server/modules/');

const zones = [
  { target: './common', from: ['./app', './server'], message: 'common/ is shared by both sides: it imports nothing from app/ or server/.' },
  { target: './app', from: './server', message: 'The web client never imports server code: load data in a route loader (context) or call the API.' },
  { target: ['./app/components', './app/lib'], from: ['./app/features', './app/routes'], message: 'Shared elements do not depend on features or routes.' },
  { target: './app/features', from: './app/routes', message: 'Imports flow shared → features → routes, never back.' },
  // Features do not import each other: what two features share lives in app/components or app/lib.
  ...features.map((feature) => ({
    target: `./app/features/${feature}`,
    from: './app/features',
    except: [`./${feature}`],
    message: `A feature does not import another feature: move what ${feature} needs to app/components, app/lib or common/.`,
  })),
  // A module reaches another module through its service, never its repository.
  ...modules.flatMap((module) =>
    modules
      .filter((other) => other !== module)
      .map((other) => ({
        target: `./server/modules/${module}`,
        from: `./server/modules/${other}/*.repository.ts`,
        message: `server/modules/${module} must not use ${other}'s repository: call its service.`,
      })),
  ),
  // Test data lives with the tests (issue 24): no production file imports it; test files may.
  {
    target: ['./server/!(*.test).ts', './{server/modules,server/platform,server/web,server/db,server/cli,app,common}/**/!(*.test).{ts,tsx}'],
    from: './server/test-support',
    message: 'server/test-support/ is for tests: production code never imports a fixture or factory.',
  },
];

// The files that decide on an order's state without comparing a status or step
// literal (issue 24, decision 0035; the rule: scripts/lint/order-literals.mjs).
// They ask the order view's allowed_events or common/order.ts's helpers and
// typed step lists. Append a file's glob here once it is clean.
export const ORDER_LITERAL_FREE_FILES = [
  // The customer's order pages.
  'app/routes/order-*.tsx',
  'app/routes/ordering-*.tsx',
  'app/features/order/**/*.{ts,tsx}',
  'app/features/ordering/**/*.{ts,tsx}',
  'app/features/payment/**/*.{ts,tsx}',
  'app/features/mail/**/*.{ts,tsx}',
  'app/components/upload/**/*.{ts,tsx}',
  'app/components/interview/**/*.{ts,tsx}',
  // The customer's side of the order view, and the order's engine-side service.
  'server/modules/order-view/customer-view.ts',
  'server/modules/order-view/order-detail.ts',
  'server/modules/order-view/order-list.ts',
  'server/modules/order-view/order-summary.ts',
  'server/modules/order/order.service.ts',
  'server/modules/order/order.routes.ts',
  'server/modules/order/confirm.ts',
  'server/modules/order/sla.ts',
  'server/modules/material/material.service.ts',
  // The operator's side: the workbench view, the review module and the back office's order pages.
  'server/modules/order-view/workbench.ts',
  'server/modules/order-view/workbench.repository.ts',
  'server/modules/order-view/workbench.routes.ts',
  'server/web/operator-reads.ts',
  'server/modules/review/*.ts',
  'app/routes/admin/order-workbench.tsx',
  'app/features/admin/**/*.{ts,tsx}',
  // The modules of the lifecycle's sub-machines (page check, interview change, price difference,
  // refund) and the payment settlement: their records' states are asked of the lifecycle's table.
  'server/modules/page-check/*.ts',
  'server/modules/interview/interview-notice.service.ts',
  'server/modules/interview/interview.service.ts',
  'server/modules/interview/order-interview.ts',
  'server/modules/price-difference/*.ts',
  'server/modules/refund/*.ts',
  'server/modules/payment/settlement.ts',
  'server/modules/payment/payment.service.ts',
  'server/modules/retention/retention.job.ts',
  'server/modules/order/schedule.ts',
  'server/modules/notification/*.ts',
  'server/modules/order-notices/*.ts',
];

export default tseslint.config(
  {
    ignores: [
      'build/**',
      'builds/**',
      '*.builds/**',
      '.react-router/**',
      'node_modules/**',
      'data/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Kysely's generic builders and a few test doubles need `any` where the types cannot follow.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // The only two antd icons whose SVG carries an inline <style>, which the CSP refuses
      // (decision 0013): app/components/login-icon.tsx draws LoginOutlined without it.
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@ant-design/icons',
              importNames: ['LoginOutlined', 'RestOutlined'],
              message: 'Its SVG carries an inline <style> that the CSP refuses: use app/components/login-icon.tsx (or draw the icon without its <defs>).',
            },
          ],
          patterns: [
            {
              group: ['@ant-design/icons/**/LoginOutlined', '@ant-design/icons/**/RestOutlined'],
              message: 'Its SVG carries an inline <style> that the CSP refuses: use app/components/login-icon.tsx.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ORDER_LITERAL_FREE_FILES,
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { order: orderLiterals },
    rules: { 'order/no-status-literal': 'error' },
  },
);
