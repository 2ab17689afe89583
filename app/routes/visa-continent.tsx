import '../features/catalogue/browse/browse.css';

import { type FormEvent, useEffect, useState } from 'react';
import { Link, type ShouldRevalidateFunctionArgs, useSearchParams } from 'react-router';
import { Button, Input } from 'antd';
import { RightOutlined, SearchOutlined } from '@ant-design/icons';

import { PARAM, matchesCountry, pickContinent } from '../features/catalogue/browse/browse-params';
import { CountryCard } from '../features/catalogue/browse/country-card';
import type { RouteHandle } from '../lib/route-handle';
import type { Route } from './+types/visa-continent';
import { AntdScope } from '../components/antd-scope';

/** Painted before its JavaScript loads (app/lib/paint-first.ts). */
export const handle: RouteHandle = { paintFirst: true };

export const meta: Route.MetaFunction = () => [
  { title: '按大洲选择签证 - 易签通' },
  {
    name: 'description',
    content: '按亚洲、欧洲、美洲、大洋洲、非洲浏览易签通可办理签证的国家，查看各国旅游、商务、探亲签证产品数量与价格，在线办理签证。',
  },
  { name: 'keywords', content: '签证办理,亚洲签证,欧洲签证,美洲签证,大洋洲签证,非洲签证,旅游签证' },
];

export async function loader({ context }: Route.LoaderArgs) {
  return { continents: await context.catalogue.continents() };
}

// The continents never change between tab switches or searches: those only
// change the search parameters, and the page filters what it already has.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

export default function VisaContinent({ loaderData }: Route.ComponentProps) {
  const { continents } = loaderData;
  const [searchParams, setSearchParams] = useSearchParams();
  const urlQuery = searchParams.get(PARAM.query) ?? '';
  // The box filters as one types; the URL only carries a submitted query
  // (the GET form without JavaScript, or Enter), so typing stays smooth.
  const [query, setQuery] = useState(urlQuery);
  useEffect(() => setQuery(urlQuery), [urlQuery]);

  const selectedId = pickContinent(
    searchParams.get(PARAM.continent),
    continents.map((c) => c.continent_id),
  );
  const selected = continents.find((c) => c.continent_id === selectedId) ?? null;
  const countryCount = continents.reduce((sum, c) => sum + c.countries.length, 0);
  const productCount = continents.reduce((sum, c) => sum + c.countries.reduce((n, country) => n + country.product_count, 0), 0);
  const continentName = new Map(continents.map((c) => [c.continent_id, c.name]));

  const searching = query.trim().length > 0;
  const matches = searching ? continents.flatMap((c) => c.countries.filter((country) => matchesCountry(country, query))) : [];

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const next = new URLSearchParams(searchParams);
    if (query.trim()) next.set(PARAM.query, query.trim());
    else next.delete(PARAM.query);
    setSearchParams(next, { replace: true, preventScrollReset: true });
  };

  const clearSearch = () => {
    setQuery('');
    if (urlQuery) {
      const next = new URLSearchParams(searchParams);
      next.delete(PARAM.query);
      setSearchParams(next, { replace: true, preventScrollReset: true });
    }
  };

  return (
    <div className="browse-page">
      <section className="browse-hero">
        <div className="browse-container">
          <nav className="browse-breadcrumb" aria-label="当前位置">
            <Link to="/">首页</Link>
            <RightOutlined />
            <span aria-current="page">签证办理</span>
          </nav>
          <h1 className="browse-hero-title">按大洲选择签证</h1>
          <p className="browse-hero-sub">选择目的地国家，查看旅游、商务、探亲等签证产品的材料清单、办理时长与价格，全程在线办理。</p>
          <div className="browse-hero-stats">
            <span>
              <strong>{countryCount}</strong>个国家和地区
            </span>
            <span>
              <strong>{productCount}</strong>款在售签证
            </span>
            <span>
              <strong>5</strong>大洲全覆盖
            </span>
          </div>
          {/* The search box is antd's (clear button, prefix icon): the one part of this page in antd's scope. */}
          <AntdScope>
            <form method="get" action="/visa/continent" role="search" className="browse-search" onSubmit={onSubmit}>
              {selectedId !== null && searchParams.has(PARAM.continent) ? <input type="hidden" name={PARAM.continent} value={selectedId} /> : null}
              <Input
                name={PARAM.query}
                size="large"
                value={query}
                onChange={(event) => {
                  setQuery(event.target.value);
                  if (!event.target.value && urlQuery) clearSearch();
                }}
                allowClear
                prefix={<SearchOutlined />}
                placeholder="搜索国家，如：日本、France"
                aria-label="搜索国家"
                autoComplete="off"
              />
              <Button htmlType="submit" size="large" className="browse-search-button">
                搜索
              </Button>
            </form>
          </AntdScope>
        </div>
      </section>

      <div className="browse-container">
        <div className="browse-panel">
          <nav className="browse-tabs" aria-label="大洲">
            {continents.map((continent) => {
              const active = !searching && continent.continent_id === selectedId;
              return (
                <Link
                  key={continent.continent_id}
                  to={`/visa/continent?${PARAM.continent}=${continent.continent_id}`}
                  preventScrollReset
                  onClick={() => setQuery('')}
                  className={active ? 'browse-tab is-active' : 'browse-tab'}
                  aria-current={active ? 'page' : undefined}
                  data-testid="continent-tab"
                >
                  {continent.name}
                  <span className="browse-tab-count">{continent.countries.length}</span>
                </Link>
              );
            })}
          </nav>

          {searching ? (
            <section aria-live="polite">
              <div className="browse-grid-head">
                <h2 className="browse-grid-title">“{query.trim()}”的搜索结果</h2>
                <span className="browse-grid-note">找到 {matches.length} 个国家</span>
              </div>
              {matches.length > 0 ? (
                <div className="browse-grid">
                  {matches.map((country) => (
                    <CountryCard key={country.visa_country_id} country={country} continentName={continentName.get(country.continent_id)} />
                  ))}
                </div>
              ) : (
                <div className="browse-empty">
                  没有找到匹配的国家，换个关键词试试，或
                  <Link to="/visa/continent" onClick={() => setQuery('')}>
                    按大洲浏览
                  </Link>
                </div>
              )}
            </section>
          ) : selected ? (
            <section>
              <div className="browse-grid-head">
                <h2 className="browse-grid-title">
                  {selected.name}签证<small>{selected.name_en}</small>
                </h2>
                <span className="browse-grid-note">共 {selected.countries.length} 个国家和地区</span>
              </div>
              {selected.countries.length > 0 ? (
                <div className="browse-grid">
                  {selected.countries.map((country) => (
                    <CountryCard key={country.visa_country_id} country={country} />
                  ))}
                </div>
              ) : (
                <div className="browse-empty">该大洲的签证产品即将上线，敬请期待</div>
              )}
            </section>
          ) : (
            <div className="browse-empty">暂无可办理签证的国家</div>
          )}
        </div>
      </div>
    </div>
  );
}
