import './browse.css';

import { Link, useLocation, useSearchParams } from 'react-router';
import { SELECT_ALL_LABEL } from '../../../../common/constants';
import { DragScrollList } from '../../../components/drag-scroll-list';
import { PARAM, withParams } from './browse-params';

interface Option {
  id: number;
  name: string;
}

/**
 * The visa-type and tag filters. Every choice is a link that sets (or, for
 * '全部', removes) its search parameter, so the filters work without
 * JavaScript and a reload keeps them; with JavaScript the navigation re-runs
 * the loader in place.
 */
export function ProductFilters({
  visaTypes,
  tags,
  visaTypeId,
  tagId,
}: {
  visaTypes: Option[];
  tags: Option[];
  visaTypeId: number | null;
  tagId: number | null;
}) {
  const [searchParams] = useSearchParams();
  const { pathname } = useLocation();
  const href = (param: string, id: number | null) => withParams(pathname, searchParams, { [param]: id });

  return (
    <div className="browse-filters">
      {visaTypes.length > 0 ? (
        <div className="browse-filter-row" data-testid="visa-type-filter">
          <span className="browse-filter-label" id="browse-visa-type-label">
            签证类型
          </span>
          <div className="browse-filter-scroll">
            <ul className="browse-segmented" aria-labelledby="browse-visa-type-label">
              {[{ id: 0, name: SELECT_ALL_LABEL }, ...visaTypes].map((option) => (
                <li key={option.id}>
                  <Link
                    to={href(PARAM.visaType, option.id || null)}
                    preventScrollReset
                    className="browse-segmented-link"
                    aria-current={(visaTypeId ?? 0) === option.id ? 'true' : undefined}
                  >
                    {option.name}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      {tags.length > 0 ? (
        <div className="browse-filter-row" data-testid="tag-filter">
          <span className="browse-filter-label">产品标签</span>
          <DragScrollList className="browse-chips" role="list">
            {[{ id: 0, name: SELECT_ALL_LABEL }, ...tags].map((option) => {
              const active = (tagId ?? 0) === option.id;
              return (
                <span role="listitem" key={option.id} className="browse-chip-item">
                  <Link
                    to={href(PARAM.tag, option.id || null)}
                    preventScrollReset
                    draggable={false}
                    className={active ? 'browse-chip is-active' : 'browse-chip'}
                    aria-current={active ? 'true' : undefined}
                  >
                    {option.name}
                  </Link>
                </span>
              );
            })}
          </DragScrollList>
        </div>
      ) : null}
    </div>
  );
}
