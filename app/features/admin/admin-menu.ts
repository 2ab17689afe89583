// The back office's side menu. Other areas add their entries here
// (订单队列, 访问日志); each entry is shown to the roles that may open it
// (common/staff-access.ts: a 产品编辑 sees 产品管理's entries only).
import type { OperatorRole } from '../../../common/contracts/operator';
import { type StaffAccess, staffMay } from '../../../common/staff-access';

export interface AdminMenuEntry {
  path: string;
  label: string;
  /** Who may open the page; order work (operators and supervisors) unless said. */
  access?: StaffAccess;
}

export const ADMIN_MENU: AdminMenuEntry[] = [
  { path: '/admin', label: '工作台' },
  { path: '/admin/orders', label: '订单队列' },
  { path: '/admin/operators', label: '操作员管理', access: 'supervisor' },
  { path: '/admin/access-log', label: '访问日志', access: 'supervisor' },
  { path: '/admin/reconciliation', label: '对账差异' },
  { path: '/admin/invoices', label: '发票' },
  { path: '/admin/catalogue', label: '产品管理', access: 'catalogue' },
  { path: '/admin/catalogue/slots', label: '面试时段', access: 'catalogue' },
  { path: '/admin/catalogue/countries', label: '国家与领区', access: 'catalogue' },
];

export function menuFor(role: OperatorRole): AdminMenuEntry[] {
  return ADMIN_MENU.filter((entry) => staffMay(role, entry.access ?? 'operator'));
}

/**
 * The entry a path belongs to: the longest matching prefix, among all entries (a page the role may
 * not open highlights nothing rather than 工作台). 工作台 (/admin) is its own path only: every back-office
 * path starts with /admin/.
 */
export function selectedEntry(pathname: string, entries: AdminMenuEntry[]): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return entries
    .filter((entry) => path === entry.path || (entry.path !== '/admin' && path.startsWith(`${entry.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0]?.path;
}
