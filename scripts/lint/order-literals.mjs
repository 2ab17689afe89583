// ESLint rule `order/no-status-literal` (issue 24, decision 0035): outside
// common/order.ts and the lifecycle, no file decides on an order's state by
// comparing a status or step to a literal. Pages ask the order view's
// allowed_events, or the typed helpers and step lists of common/order.ts, so a
// new step or rule is added in those two places and the compiler follows it.
//
// Refused: `x.status === 'draft'` (and !==, ==, != either way round, on any
// `status`/`step`/`*_status`/`*_step` field or variable), `case 'page_check':`
// in a switch on such a field, and `['submitted', 'returning'].includes(x.step)`
// or `steps.includes('interview')`. The values are the order's statuses and
// processing steps (common/order.ts ORDER_STATUSES, ORDER_STEPS;
// common/order-lint.test.ts keeps the two lists equal).

export const ORDER_STATUS_LITERALS = ['draft', 'pending_payment', 'processing', 'completed', 'cancelled', 'refunded'];
export const ORDER_STEP_LITERALS = ['material_review', 'reupload_needed', 'awaiting_mail', 'page_check', 'interview', 'submitted', 'returning'];

const VALUES = new Set([...ORDER_STATUS_LITERALS, ...ORDER_STEP_LITERALS]);
const FIELD = /(^|_)(status|step)$/;

function isStateLiteral(node) {
  return node?.type === 'Literal' && typeof node.value === 'string' && VALUES.has(node.value);
}

/** `status`, `order.step`, `row.order_status`, `view?.step`, `order.step ?? ''`. */
function isStateField(node) {
  if (!node) return false;
  if (node.type === 'ChainExpression') return isStateField(node.expression);
  if (node.type === 'LogicalExpression') return isStateField(node.left);
  if (node.type === 'TSAsExpression' || node.type === 'TSNonNullExpression') return isStateField(node.expression);
  if (node.type === 'Identifier') return FIELD.test(node.name);
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return FIELD.test(node.property.name);
  return false;
}

const message = "Compared an order's {{what}} to '{{value}}': ask the view's allowed_events or a helper/step list of common/order.ts.";

const noStatusLiteral = {
  meta: {
    type: 'problem',
    docs: { description: 'Order statuses and steps are compared only in common/order.ts and the lifecycle.' },
    schema: [],
    messages: { literal: message },
  },
  create(context) {
    const report = (node, literal) =>
      context.report({ node, messageId: 'literal', data: { what: ORDER_STEP_LITERALS.includes(literal.value) ? 'step' : 'status', value: literal.value } });
    return {
      BinaryExpression(node) {
        if (!['===', '!==', '==', '!='].includes(node.operator)) return;
        if (isStateLiteral(node.right) && isStateField(node.left)) report(node, node.right);
        else if (isStateLiteral(node.left) && isStateField(node.right)) report(node, node.left);
      },
      SwitchStatement(node) {
        if (!isStateField(node.discriminant)) return;
        for (const branch of node.cases) if (isStateLiteral(branch.test)) report(branch, branch.test);
      },
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.name !== 'includes') return;
        const literalArgument = node.arguments.find(isStateLiteral);
        if (literalArgument) return report(node, literalArgument);
        if (callee.object.type === 'ArrayExpression' && node.arguments.some(isStateField)) {
          const literal = callee.object.elements.find(isStateLiteral);
          if (literal) report(node, literal);
        }
      },
    };
  },
};

export default { meta: { name: 'order-literals' }, rules: { 'no-status-literal': noStatusLiteral } };
