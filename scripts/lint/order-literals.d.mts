// Types of the lint rule's module (order-literals.mjs), for its test.
import type { ESLint } from 'eslint';

export const ORDER_STATUS_LITERALS: string[];
export const ORDER_STEP_LITERALS: string[];
declare const plugin: ESLint.Plugin;
export default plugin;
