// The side menu highlights the page's own entry: 工作台 only on /admin itself,
// never for a page the role may not open (issue 27: 访问日志 opened by an
// operator highlighted 工作台).
import { describe, expect, it } from 'vitest';
import { menuFor, selectedEntry } from './admin-menu';

describe('menuFor', () => {
  it('shows each role the pages it may open: a 产品编辑 产品管理’s only (issue 26)', () => {
    expect(menuFor('catalogue_editor').map((entry) => entry.label)).toEqual(['产品管理', '面试时段', '国家与领区']);
    expect(menuFor('operator').map((entry) => entry.label)).toEqual(['工作台', '订单队列', '对账差异', '发票']);
    expect(menuFor('supervisor').map((entry) => entry.label)).toEqual([
      '工作台',
      '订单队列',
      '操作员管理',
      '访问日志',
      '对账差异',
      '发票',
      '产品管理',
      '面试时段',
      '国家与领区',
    ]);
  });
});

describe('selectedEntry', () => {
  const operator = menuFor('operator');
  const supervisor = menuFor('supervisor');

  it('highlights each back-office page’s own entry', () => {
    expect(selectedEntry('/admin', operator)).toBe('/admin');
    expect(selectedEntry('/admin/', operator)).toBe('/admin');
    expect(selectedEntry('/admin/orders', operator)).toBe('/admin/orders');
    expect(selectedEntry('/admin/orders/42', operator)).toBe('/admin/orders');
    expect(selectedEntry('/admin/reconciliation', operator)).toBe('/admin/reconciliation');
    expect(selectedEntry('/admin/access-log', supervisor)).toBe('/admin/access-log');
    expect(selectedEntry('/admin/operators', supervisor)).toBe('/admin/operators');
    expect(selectedEntry('/admin/catalogue/reviews', supervisor)).toBe('/admin/catalogue');
    expect(selectedEntry('/admin/catalogue/countries/edit', supervisor)).toBe('/admin/catalogue/countries');
  });

  it('highlights nothing for a page outside the role’s menu (not 工作台)', () => {
    expect(selectedEntry('/admin/access-log', operator)).toBeUndefined();
    expect(selectedEntry('/admin/operators', operator)).toBeUndefined();
    expect(selectedEntry('/admin/nowhere', operator)).toBeUndefined();
  });
});
