import './browse.css';

import { Link } from 'react-router';
import { formatPrice } from '../../../../common/format';
import type { CountrySummary } from '../../../../common/contracts/catalogue';

/** A country of the continent grid: flag, names, product count and lowest price. */
export function CountryCard({ country, continentName }: { country: CountrySummary; continentName?: string }) {
  return (
    <Link to={`/visa/country/${country.visa_country_id}`} className="browse-country-card" data-testid="country-card" aria-label={`${country.name}签证`}>
      <span className="browse-country-flag">
        <img src={country.flag} alt="" width={64} height={48} loading="lazy" draggable={false} />
      </span>
      <span className="browse-country-text">
        <span className="browse-country-name">
          {country.name}
          {continentName ? <span className="browse-country-continent">{continentName}</span> : null}
        </span>
        <span className="browse-country-en">{country.name_en}</span>
        {country.product_count > 0 && country.min_price !== null ? (
          <span className="browse-country-meta">
            <span>{country.product_count}款签证</span>
            <span className="browse-country-price">{formatPrice(country.min_price)}起</span>
          </span>
        ) : (
          <span className="browse-country-meta browse-country-meta--none">暂无在售产品</span>
        )}
      </span>
    </Link>
  );
}

/** A compact destination of the home page's drag-scroll strip. */
export function DestinationCard({ country }: { country: CountrySummary }) {
  return (
    <Link to={`/visa/country/${country.visa_country_id}`} className="browse-destination" data-testid="hot-destination" draggable={false}>
      <span className="browse-destination-flag">
        <img src={country.flag} alt="" width={132} height={99} loading="lazy" draggable={false} />
      </span>
      <span className="browse-destination-name">{country.name}</span>
      <span className="browse-destination-en">{country.name_en}</span>
      <span className="browse-destination-price">
        {country.product_count > 0 && country.min_price !== null ? `${formatPrice(country.min_price)}起` : '暂无在售产品'}
      </span>
    </Link>
  );
}
