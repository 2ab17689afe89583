// The lint rule that keeps status and step literals in common/order.ts and the
// lifecycle (scripts/lint/order-literals.mjs, eslint.config.js
// ORDER_LITERAL_FREE_FILES), run through ESLint's API on the real config.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUS_LITERALS, ORDER_STEP_LITERALS } from '../scripts/lint/order-literals.mjs';
import { ORDER_STATUS_VALUES, ORDER_STEP_VALUES } from './order.ts';

const eslint = new ESLint();

async function literalProblems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'order/no-status-literal').map((message) => message.message);
}

const CUSTOMER_FILE = 'app/features/order/lint-probe.tsx';

describe('order/no-status-literal', () => {
  it('knows every status and step of common/order.ts', () => {
    expect(ORDER_STATUS_LITERALS).toEqual(ORDER_STATUS_VALUES);
    expect(ORDER_STEP_LITERALS).toEqual(ORDER_STEP_VALUES);
  });

  it('covers the customer pages and the order view (eslint.config.js ORDER_LITERAL_FREE_FILES)', async () => {
    for (const file of [CUSTOMER_FILE, 'app/routes/order-detail.tsx', 'server/modules/order-view/order-detail.ts']) {
      const config = (await eslint.calculateConfigForFile(file)) as { rules: Record<string, unknown> };
      expect(config.rules['order/no-status-literal'], file).toEqual([2]);
    }
  });

  it('refuses comparing a status or step to a literal, either way round, in a switch or an includes', async () => {
    const cases = [
      "export const a = (order: { status: string }) => order.status === 'draft';",
      "export const a = (order: { step: string | null }) => 'page_check' !== order.step;",
      "export const a = (result: { order_status: string }) => result.order_status == 'cancelled';",
      "export const a = (order: { step: string | null }) => ['submitted', 'returning'].includes(order.step ?? '');",
      "export const a = (steps: string[]) => steps.includes('interview');",
      "export function a(order: { status: string }) { switch (order.status) { case 'processing': return 1; default: return 0; } }",
    ];
    for (const code of cases) expect(await literalProblems(code, CUSTOMER_FILE), code).toHaveLength(1);
  });

  it('lets the typed helpers, other fields and files outside the list be', async () => {
    const helpers = [
      "import { isDraft, isProcessingIn, RESULT_SHOWN_STEPS } from '../../../common/order';",
      'export const a = (order: { status: string; step: string | null }) => isDraft(order) || isProcessingIn(order, RESULT_SHOWN_STEPS);',
      "export const b = (list: { mode: string }) => list.mode !== 'draft';",
    ].join('\n');
    expect(await literalProblems(helpers, CUSTOMER_FILE)).toEqual([]);
    expect(await literalProblems("export const a = (order: { status: string }) => order.status === 'draft';", 'scripts/lint-probe.ts')).toEqual([]);
  });
});
