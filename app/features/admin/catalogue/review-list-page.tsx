// 产品管理 · 评价 (issue 26): a product's reviews, hidden ones included, with
// the guest page's score and count (visible reviews only). 隐藏 / 恢复显示
// asks for a reason; the text itself is never editable here. The last hide or
// show of each review says who, when and why.
import { Alert, Button, Form, Input, Modal, Rate, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { type AdminReviewList, REVIEW_ADMIN_PAGE_SIZE } from '../../../../common/contracts/catalogue-places';
import { formatDateTime } from '../../../../common/format';
import { toast } from '../../../lib/toast';
import { adminApi } from '../admin-api';
import './catalogue.css';

type Review = AdminReviewList['list'][number];

function averageOf(list: { sum_score: number; reviews: number }): string {
  return list.reviews === 0 ? '暂无评分' : `${(list.sum_score / list.reviews).toFixed(1)} 分`;
}

export function ReviewListPage({ list, page }: { list: AdminReviewList; page: number }) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [target, setTarget] = useState<Review | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{ reason: string }>();
  const productId = list.product.visa_product_id;

  async function moderate({ reason }: { reason: string }) {
    if (!target) return;
    setBusy(true);
    try {
      const done = await adminApi('/admin-api/catalogue/review_moderate', { review_id: target.review_id, hidden: !target.hidden, reason });
      toast.success(done.hidden ? '已隐藏，客人页面已更新' : '已恢复显示，客人页面已更新');
      setTarget(null);
      form.resetFields();
      await revalidator.revalidate();
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="cat-list-page" data-testid="catalogue-reviews">
      <div className="cat-editor-head">
        <div>
          <Link to={`/admin/catalogue/edit?product=${productId}`}>← 返回产品编辑</Link>
          <h1 className="cat-title">评价管理 · {list.product.title}</h1>
        </div>
        <p className="cat-review-stats" data-testid="review-stats">
          客人看到：<strong>{list.reviews}</strong> 条评价 · 平均 <strong>{averageOf(list)}</strong>
          <span className="cat-muted">（共 {list.total_count} 条，含已隐藏）</span>
        </p>
      </div>
      <Alert
        type="info"
        showIcon
        className="cat-conflict"
        title="评价内容不可修改；隐藏后客人页面不再显示该评价，评分和评价数随之变化。隐藏和恢复都须填写原因并留有记录。"
      />
      <Table
        rowKey="review_id"
        size="middle"
        dataSource={list.list}
        rowClassName={(row) => (row.hidden ? 'cat-review-hidden' : '')}
        pagination={{
          current: page,
          pageSize: REVIEW_ADMIN_PAGE_SIZE,
          total: list.total_count,
          showSizeChanger: false,
          onChange: (next) => navigate(`/admin/catalogue/reviews?product=${productId}${next > 1 ? `&page=${next}` : ''}`),
        }}
        columns={[
          { title: '时间', dataIndex: 'create_time', width: 150, render: (at: number) => formatDateTime(at) },
          {
            title: '客人',
            width: 130,
            render: (_: unknown, row) => (
              <>
                <div>{row.nickname ?? '匿名'}</div>
                <div className="cat-muted cat-no-indent">{row.mobile_phone ?? ''}</div>
              </>
            ),
          },
          { title: '评分', dataIndex: 'score', width: 150, render: (score: number) => <Rate disabled value={score} aria-label={`${score} 分`} /> },
          { title: '内容', dataIndex: 'content', render: (content: string) => <span className="cat-review-text">{content}</span> },
          {
            title: '状态',
            width: 220,
            render: (_: unknown, row) => (
              <>
                {row.hidden ? <Tag color="red">已隐藏</Tag> : <Tag color="green">显示中</Tag>}
                {row.last_moderation ? (
                  <div className="cat-muted cat-no-indent" data-testid="review-moderation">
                    {row.last_moderation.action === 'hide' ? '隐藏' : '恢复'}：{row.last_moderation.reason}
                    <br />
                    {row.last_moderation.operator_name} · {formatDateTime(row.last_moderation.created_at)}
                  </div>
                ) : null}
              </>
            ),
          },
          {
            title: '操作',
            width: 110,
            render: (_: unknown, row) => (
              <Button size="small" danger={!row.hidden} onClick={() => setTarget(row)}>
                {row.hidden ? '恢复显示' : '隐藏'}
              </Button>
            ),
          },
        ]}
      />
      <Modal
        open={target !== null}
        title={target?.hidden ? '恢复显示这条评价' : '隐藏这条评价'}
        okText={target?.hidden ? '恢复显示' : '隐藏'}
        okButtonProps={{ danger: !target?.hidden, loading: busy }}
        cancelText="取消"
        onOk={() => form.submit()}
        onCancel={() => {
          setTarget(null);
          form.resetFields();
        }}
        destroyOnHidden
      >
        {target ? <p className="cat-review-quote">“{target.content}”</p> : null}
        <Form form={form} layout="vertical" onFinish={moderate} preserve={false}>
          <Form.Item
            name="reason"
            label="原因"
            rules={[
              { required: true, whitespace: true, message: '请填写原因' },
              { max: 200, message: '最多 200 字' },
            ]}
          >
            <Input maxLength={200} placeholder="例如：广告或与产品无关" />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
