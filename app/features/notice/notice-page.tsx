// The customer's notices (消息通知): newest first, unread ones marked, each
// with the page to act on. Opening a notice's link marks it read; 标为已读 and
// 全部标为已读 call the API and revalidate the page and the header's bell.
import { BellOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Empty, Pagination } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useRevalidator, useSearchParams } from 'react-router';
import { NOTICE_PAGE_SIZE, type NoticeListResult, type NoticeView } from '../../../common/contracts/notice';
import { formatDateTime } from '../../../common/format';
import { LoadingOverlay } from '../../components/loading-overlay';
import { api } from '../../lib/api-client';
import './notice.css';

export function NoticePage({ page, list }: { page: number; list: NoticeListResult }) {
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const [, setSearchParams] = useSearchParams();
  const [busy, setBusy] = useState(false);

  const markRead = async (notice: NoticeView) => {
    try {
      await api('/www/notice/notice_read', { notice_id: notice.notice_id });
    } catch {
      // api has shown the server's message.
    }
  };

  const readAll = async () => {
    setBusy(true);
    try {
      await api('/www/notice/notice_read_all', {});
    } catch {
      // api has shown the server's message.
    } finally {
      setBusy(false);
    }
    await revalidator.revalidate();
  };

  return (
    <div className="notice-page" data-testid="notice-page">
      <header className="notice-head">
        <h1 className="notice-title">
          消息通知
          {list.unread_count > 0 ? <span className="notice-unread-total">{list.unread_count} 条未读</span> : null}
        </h1>
        <Button onClick={() => void readAll()} loading={busy} disabled={list.unread_count === 0} data-testid="notice-read-all">
          全部标为已读
        </Button>
      </header>
      <LoadingOverlay loading={revalidator.state === 'loading'} loadingText="正在加载消息">
        {list.page_data.length === 0 ? (
          <div className="notice-empty">
            <Empty image={<BellOutlined />} description="暂无消息。订单需要您处理或有新进展时，会在这里通知您。" />
          </div>
        ) : (
          <ul className="notice-list" data-testid="notice-list">
            {list.page_data.map((notice) => (
              <li key={notice.notice_id} className={`notice-item${notice.read ? '' : ' notice-item--unread'}`} data-testid="notice-item">
                <div className="notice-item-main">
                  <div className="notice-item-title">
                    {notice.read ? null : <span className="notice-dot" aria-hidden="true" />}
                    <span>{notice.title}</span>
                    {notice.read ? null : <span className="notice-visually-hidden">（未读）</span>}
                  </div>
                  <p className="notice-item-body">{notice.body}</p>
                  <div className="notice-item-meta">
                    <time dateTime={new Date(notice.created_at).toISOString()}>{formatDateTime(notice.created_at)}</time>
                    {notice.order_no ? <span>订单号 {notice.order_no}</span> : null}
                  </div>
                </div>
                <div className="notice-item-actions">
                  <Link
                    to={notice.link}
                    className="notice-item-go"
                    data-testid="notice-go"
                    onClick={(event) => {
                      if (notice.read) return;
                      // Marked read first, so the bell on the next page already counts it.
                      event.preventDefault();
                      void markRead(notice).then(() => navigate(notice.link));
                    }}
                  >
                    去处理 <RightOutlined />
                  </Link>
                  {notice.read ? null : (
                    <Button
                      type="link"
                      size="small"
                      className="notice-item-read"
                      data-testid="notice-mark-read"
                      onClick={() => void markRead(notice).then(() => revalidator.revalidate())}
                    >
                      标为已读
                    </Button>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </LoadingOverlay>
      {list.total_count > NOTICE_PAGE_SIZE ? (
        <Pagination
          className="notice-pagination"
          current={page}
          pageSize={NOTICE_PAGE_SIZE}
          total={list.total_count}
          showLessItems
          showSizeChanger={false}
          onChange={(next) => {
            setSearchParams(next === 1 ? {} : { page: String(next) });
            window.scrollTo({ top: 0 });
          }}
        />
      ) : null}
    </div>
  );
}
