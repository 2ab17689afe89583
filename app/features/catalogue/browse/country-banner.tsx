import './browse.css';

import { Link } from 'react-router';
import { RightOutlined } from '@ant-design/icons';
import type { VisaCountryDetail } from '../../../../common/contracts/catalogue';

/**
 * The country page's banner, drawn from the country's 4x3 flag: a blurred,
 * darkened copy fills the background, the crisp flag sits beside the title.
 */
export function CountryBanner({ country }: { country: VisaCountryDetail }) {
  return (
    <section className="browse-banner" data-testid="country-banner">
      <div className="browse-banner-backdrop" aria-hidden="true">
        <img src={country.banner_flag} alt="" draggable={false} />
      </div>
      <div className="browse-container browse-banner-inner">
        <nav className="browse-breadcrumb" aria-label="当前位置">
          <Link to="/">首页</Link>
          <RightOutlined />
          <Link to={`/visa/continent?continent_id=${country.continent_id}`}>{country.continent}签证</Link>
          <RightOutlined />
          <span aria-current="page">{country.name}</span>
        </nav>
        <div className="browse-banner-main">
          <span className="browse-banner-flag">
            <img src={country.banner_flag} alt={`${country.name}国旗`} width={160} height={120} draggable={false} />
          </span>
          <div className="browse-banner-text">
            <h1 className="browse-banner-title">{country.name}签证</h1>
            <div className="browse-banner-sub">
              <span>{country.name_en}</span>
              <span className="browse-banner-dot" aria-hidden="true" />
              <span>{country.continent}</span>
            </div>
            {country.description ? <p className="browse-banner-desc">{country.description}</p> : null}
            {country.visa_types.length > 0 ? (
              <div className="browse-banner-types">
                {country.visa_types.map((type) => (
                  <span key={type.visa_type_id} className="browse-banner-type">
                    {type.name}
                  </span>
                ))}
              </div>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
