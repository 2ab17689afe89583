import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import './plain.css';

/** Page numbers shown around the current one (antd's showLessItems): first, current ± 1, last. */
export function pageWindow(current: number, pages: number): Array<number | 'gap'> {
  if (pages <= 5) return Array.from({ length: pages }, (_, index) => index + 1);
  let left = Math.max(1, current - 1);
  let right = Math.min(pages, current + 1);
  if (current <= 2) right = 3;
  if (current >= pages - 1) left = pages - 2;
  const shown: Array<number | 'gap'> = [];
  if (left > 1) shown.push(1);
  if (left > 2) shown.push('gap');
  for (let page = left; page <= right; page++) shown.push(page);
  if (right < pages - 1) shown.push('gap');
  if (right < pages) shown.push(pages);
  return shown;
}

interface PagerProps {
  current: number;
  pageSize: number;
  total: number;
  onChange: (page: number) => void;
  label: string;
  className?: string;
}

/** Pagination with at most 5 page numbers, as buttons in a labelled navigation (no antd Select behind it). */
export function Pager({ current, pageSize, total, onChange, label, className }: PagerProps) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav aria-label={label} className={className}>
      <ul className="plain-pager">
        <li>
          <button
            type="button"
            className="plain-pager-button plain-pager-prev"
            aria-label="上一页"
            disabled={current <= 1}
            onClick={() => onChange(current - 1)}
          >
            <LeftOutlined />
          </button>
        </li>
        {pageWindow(current, pages).map((page, index) =>
          page === 'gap' ? (
            <li key={`gap-${index}`} className="plain-pager-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={page}>
              <button
                type="button"
                className="plain-pager-button plain-pager-item"
                aria-current={page === current ? 'page' : undefined}
                onClick={() => page !== current && onChange(page)}
              >
                {page}
              </button>
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className="plain-pager-button plain-pager-next"
            aria-label="下一页"
            disabled={current >= pages}
            onClick={() => onChange(current + 1)}
          >
            <RightOutlined />
          </button>
        </li>
      </ul>
    </nav>
  );
}
