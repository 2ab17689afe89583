// What each back-office role may open (issue 26). The server refuses a call
// the caller's role may not make (2003, server/app.ts's session hook, before
// anything is read) and the pages hide what the role cannot open; both read
// this one table.
//
// The kinds of back-office call and page:
// - staff: the operator's own session (operator_me, logout): every role;
// - operator: the order work — queue, workbench, mail, results, refunds,
//   reconciliation, invoices, the order files: operators and supervisors;
// - supervisor: managing staff, the access log, assigning and refunding:
//   supervisors only;
// - catalogue: 产品管理 (products, checklists, countries and consulates,
//   slots, reviews, the workbook): supervisors and catalogue editors.
import { OPERATOR_ROLE_LABELS, type OperatorRole } from './contracts/operator.ts';

export type StaffAccess = 'staff' | 'operator' | 'supervisor' | 'catalogue';

export const STAFF_ACCESS: Record<StaffAccess, readonly OperatorRole[]> = {
  staff: ['operator', 'supervisor', 'catalogue_editor'],
  operator: ['operator', 'supervisor'],
  supervisor: ['supervisor'],
  catalogue: ['supervisor', 'catalogue_editor'],
};

/** What each role is for, as the 操作员管理 page explains it. */
export const OPERATOR_ROLE_DESCRIPTIONS: Record<OperatorRole, string> = {
  operator: '办理订单：订单队列、审核、邮寄、出签',
  supervisor: '全部功能，并管理人员、分配订单和退款',
  catalogue_editor: '只能使用产品管理：产品、清单、国家与领区、面试时段、评价和导入导出',
};

/** Who may, as the API reference says it. */
export const STAFF_ACCESS_TEXT: Record<StaffAccess, string> = {
  staff: '是（任一后台人员的 X-Token）',
  operator: '是（操作员或主管的 X-Token；产品编辑返回 2003）',
  supervisor: '是（仅主管的 X-Token）',
  catalogue: '是（主管或产品编辑的 X-Token）',
};

export function staffMay(role: OperatorRole, access: StaffAccess): boolean {
  return STAFF_ACCESS[access].includes(role);
}

/** The refusal's message (2003): the catalogue editor's says what the role is for; others keep 仅主管可以执行此操作. */
export function staffRefusalMessage(role: OperatorRole): string | undefined {
  return role === 'catalogue_editor' ? `${OPERATOR_ROLE_LABELS.catalogue_editor}只能使用产品管理` : undefined;
}

/** Where a role lands in the back office: a catalogue editor has no 工作台 (it shows order work). */
export function staffHome(role: OperatorRole): string {
  return staffMay(role, 'operator') ? '/admin' : '/admin/catalogue';
}
