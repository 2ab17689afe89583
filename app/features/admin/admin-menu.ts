// The back office's side menu. Other areas add their entries here
// (订单队列, 访问日志); `supervisor` entries are shown to supervisors only.
import type { OperatorRole } from '../../../common/contracts/operator';

export interface AdminMenuEntry {
  path: string;
  label: string;
  supervisor?: boolean;
}

export const ADMIN_MENU: AdminMenuEntry[] = [
  { path: '/admin', label: '工作台' },
  { path: '/admin/orders', label: '订单队列' },
  { path: '/admin/operators', label: '操作员管理', supervisor: true },
  { path: '/admin/access-log', label: '访问日志', supervisor: true },
  { path: '/admin/reconciliation', label: '对账差异' },
  { path: '/admin/invoices', label: '发票' },
  { path: '/admin/catalogue', label: '产品管理', supervisor: true },
  { path: '/admin/catalogue/slots', label: '面试时段', supervisor: true },
  { path: '/admin/catalogue/countries', label: '国家与领区', supervisor: true },
];

export function menuFor(role: OperatorRole): AdminMenuEntry[] {
  return ADMIN_MENU.filter((entry) => !entry.supervisor || role === 'supervisor');
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
