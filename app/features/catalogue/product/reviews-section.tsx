// The reviews section of spec 2.2: average and count, the reviews (shown
// name, stars, content, date, platform), 10 a page with a window of 5 page
// numbers, pagination only when there are more than 10.
import { UserOutlined } from '@ant-design/icons';
import { useRef, useState } from 'react';
import type { ReviewPage } from '../../../../common/contracts/catalogue';
import { REVIEW_PAGE_SIZE } from '../../../../common/constants';
import { formatAverageRating } from '../../../../common/format';
import { BusyRegion } from '../../../components/plain/busy-region';
import { Pager } from '../../../components/plain/pager';
import { api } from '../../../lib/api-client';
import { SITE_HEADER_HEIGHT_PX } from './section-tabs';
import { SECTION_IDS, formatReviewDate, reviewerName } from './product-model';
import { StarBar } from './star-bar';

export const NO_REVIEWS_TEXT = '暂时没有评论哦！';

interface ReviewsSectionProps {
  visaProductId: number;
  sumScore: number;
  reviews: number;
  firstPage: ReviewPage;
}

export function ReviewsSection({ visaProductId, sumScore, reviews, firstPage }: ReviewsSectionProps) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState(firstPage);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const sectionRef = useRef<HTMLElement>(null);
  const average = formatAverageRating(sumScore, reviews);

  const changePage = async (next: number) => {
    const request = ++latest.current;
    setLoading(true);
    try {
      const result = await api('/www/visa_product_review_list', { visa_product_id: visaProductId, page: next });
      if (request !== latest.current) return;
      setData(result);
      setPage(next);
      // Bring the top of the list back into view (below the header and the tab bar).
      const section = sectionRef.current;
      if (section && section.getBoundingClientRect().top < SITE_HEADER_HEIGHT_PX) section.scrollIntoView({ behavior: 'smooth', block: 'start' });
    } catch {
      // api has shown the error; the current page stays.
    } finally {
      if (request === latest.current) setLoading(false);
    }
  };

  return (
    <section id={SECTION_IDS.reviews} ref={sectionRef} className="pd-card pd-section" data-testid="product-reviews">
      <div className="pd-section-head">
        <h2 className="pd-section-title">用户评价</h2>
      </div>
      <div className="pd-review-summary" data-testid="product-review-summary">
        <span className="pd-review-average">{average}</span>
        <StarBar score={Number(average)} size={18} />
        <span className="pd-review-count">{reviews}条评价</span>
      </div>
      <BusyRegion busy={loading}>
        {data.page_data.length === 0 ? (
          <div className="pd-empty pd-review-empty">{NO_REVIEWS_TEXT}</div>
        ) : (
          <ul className="pd-reviews" data-testid="product-review-list">
            {data.page_data.map((review) => {
              const name = reviewerName(review);
              return (
                <li key={review.review_id} className="pd-review" data-testid="product-review">
                  <div className="pd-review-avatar" aria-hidden="true">
                    {review.nickname?.trim() ? review.nickname.trim().slice(0, 1) : <UserOutlined />}
                  </div>
                  <div className="pd-review-body">
                    <div className="pd-review-head">
                      <span className="pd-review-name">{name}</span>
                      <StarBar score={review.score} />
                    </div>
                    <div className="pd-review-content">{review.content}</div>
                    <div className="pd-review-meta">
                      <time dateTime={formatReviewDate(review.create_time)}>{formatReviewDate(review.create_time)}</time>
                      {review.platform ? <span className="pd-review-platform">{review.platform}</span> : null}
                    </div>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </BusyRegion>
      {data.total_count > REVIEW_PAGE_SIZE ? (
        <Pager
          className="pd-review-pagination"
          label="评价分页"
          current={page}
          pageSize={REVIEW_PAGE_SIZE}
          total={data.total_count}
          onChange={(next) => void changePage(next)}
        />
      ) : null}
    </section>
  );
}
