// 产品管理 (issue 26): the products with their state (上架 / 下架, 仅小程序, an
// unpublished draft and who saved it), the new products' drafts, a search by
// country, description or id, 新建产品, and the whole catalogue's workbook
// (download, preview an upload, import).
import { PlusOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table, Tag } from 'antd';
import { Link, useNavigate } from 'react-router';
import type { CatalogueProductList } from '../../../../common/contracts/catalogue-admin';
import { formatDateTime, formatPrice } from '../../../../common/format';
import { WorkbookImport } from './workbook-import';
import './catalogue.css';

export function ProductListPage({ list, keyword, page }: { list: CatalogueProductList; keyword: string; page: number }) {
  const navigate = useNavigate();
  const go = (next: { keyword?: string; page?: number }) => {
    const query = new URLSearchParams();
    const k = next.keyword ?? keyword;
    if (k) query.set('keyword', k);
    if ((next.page ?? 1) > 1) query.set('page', String(next.page));
    navigate(`/admin/catalogue${query.size ? `?${query}` : ''}`);
  };
  return (
    <div className="cat-list-page" data-testid="catalogue-products">
      <div className="cat-editor-head">
        <h1 className="cat-title">产品管理</h1>
        <Space wrap>
          <Input.Search
            placeholder="国家、产品说明或编号"
            defaultValue={keyword}
            allowClear
            onSearch={(value) => go({ keyword: value.trim(), page: 1 })}
            style={{ width: 260 }}
          />
          <WorkbookImport />
          <Link to="/admin/catalogue/edit">
            <Button type="primary" icon={<PlusOutlined />}>
              新建产品
            </Button>
          </Link>
        </Space>
      </div>
      {list.new_drafts.length > 0 ? (
        <section className="cat-new-drafts" aria-label="未发布的新产品">
          <h2>未发布的新产品</h2>
          <ul>
            {list.new_drafts.map((draft) => (
              <li key={draft.draft_id}>
                <Link to={`/admin/catalogue/edit?draft=${draft.draft_id}`}>{draft.title}</Link>
                <span className="cat-muted">
                  {draft.updated_by} · {formatDateTime(draft.updated_at)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Table
        rowKey="visa_product_id"
        size="middle"
        dataSource={list.list}
        pagination={{ current: page, pageSize: 20, total: list.total_count, showSizeChanger: false, onChange: (next) => go({ page: next }) }}
        columns={[
          { title: '编号', dataIndex: 'visa_product_id', width: 80 },
          {
            title: '产品',
            dataIndex: 'title',
            render: (title: string, row) => <Link to={`/admin/catalogue/edit?product=${row.visa_product_id}`}>{title}</Link>,
          },
          { title: '价格', dataIndex: 'sell_price', width: 110, render: (price: number) => formatPrice(price) },
          {
            title: '状态',
            width: 200,
            render: (_: unknown, row) => (
              <Space size={4} wrap>
                {row.listed ? <Tag color="green">上架</Tag> : <Tag>下架</Tag>}
                {row.offline ? null : <Tag color="purple">仅小程序</Tag>}
                {row.draft ? (
                  <Tag color="orange" title={`${row.draft.updated_by} · ${formatDateTime(row.draft.updated_at)}`}>
                    草稿未发布
                  </Tag>
                ) : null}
              </Space>
            ),
          },
          { title: '最近更新', dataIndex: 'updated_at', width: 170, render: (at: number) => formatDateTime(at) },
          {
            title: '评价',
            width: 90,
            render: (_: unknown, row) => <Link to={`/admin/catalogue/reviews?product=${row.visa_product_id}`}>管理评价</Link>,
          },
        ]}
      />
    </div>
  );
}
