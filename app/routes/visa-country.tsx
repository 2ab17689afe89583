import '../features/catalogue/browse/browse.css';

import { data, Link, useLocation, useNavigation, useSearchParams } from 'react-router';
import { CarOutlined, CustomerServiceOutlined, FileSearchOutlined, InboxOutlined, SafetyCertificateOutlined, ScanOutlined } from '@ant-design/icons';

import { BusyRegion } from '../components/plain/busy-region';
import { PARAM, pickId, withParams } from '../features/catalogue/browse/browse-params';
import { CountryBanner } from '../features/catalogue/browse/country-banner';
import { ProductCard, ProductCardIcons } from '../features/catalogue/browse/product-card';
import { ProductFilters } from '../features/catalogue/browse/product-filters';
import { ProvincePicker } from '../features/catalogue/browse/province-picker';
import { requireNumericParam } from '../lib/route-params';
import type { RouteHandle } from '../lib/route-handle';
import type { Route } from './+types/visa-country';
import { HydrationBoundary } from '../components/hydration-boundary';

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const visaCountryId = requireNumericParam(params.id);
  const country = await context.catalogue.country(visaCountryId);
  if (!country) throw data(null, { status: 404 });

  const search = new URL(request.url).searchParams;
  const provinces = context.provinces();
  // The URL wins; otherwise the visitor's province from their IP address.
  const fromUrl = provinces.find((p) => p.province_code === search.get(PARAM.province)) ?? null;
  const visitor = fromUrl ? null : context.visitorProvince();
  const province = fromUrl ?? visitor;
  const visaTypeId = pickId(
    search.get(PARAM.visaType),
    country.visa_types.map((t) => t.visa_type_id),
  );
  const tagId = pickId(
    search.get(PARAM.tag),
    country.tags.map((t) => t.tag_id),
  );

  const list = await context.catalogue.products({
    visa_country_id: visaCountryId,
    ...(province ? { province_code: province.province_code } : {}),
    ...(visaTypeId ? { visa_type_id: visaTypeId } : {}),
    ...(tagId ? { tag_id: tagId } : {}),
  });

  return {
    country,
    provinces,
    provinceCode: province?.province_code ?? null,
    provinceSource: fromUrl ? ('url' as const) : visitor ? ('ip' as const) : null,
    visaTypeId,
    tagId,
    consularDistrict: list.consular_district,
    products: list.products,
  };
}

/** Painted before its JavaScript loads (app/lib/paint-first.ts). */
export const handle: RouteHandle = { paintFirst: true };

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: '页面不存在 - 易签通' }];
  const name = loaderData.country.name;
  return [
    { title: `${name}签证办理 - 易签通` },
    { name: 'description', content: loaderData.country.description },
    { name: 'keywords', content: `${name}签证,${name}旅游签证,${name}商务签证,${name}签证材料` },
  ];
};

const PROMISES = [
  { icon: <FileSearchOutlined />, color: '#ff4b4d', title: '材料专人审核', text: '签证顾问逐项审核，不合格及时告知修改' },
  { icon: <ScanOutlined />, color: '#14bc99', title: '扫描自动填表', text: '护照证件扫描识别，申请表自动生成' },
  { icon: <CarOutlined />, color: '#3fa2f5', title: '护照顺丰寄送', text: '需递交原件时免费上门取件、出签寄回' },
  { icon: <SafetyCertificateOutlined />, color: '#fb8339', title: '拒签保障', text: '符合条件的订单赠送拒签险' },
];

export default function VisaCountry({ loaderData }: Route.ComponentProps) {
  const { country, provinces, provinceCode, provinceSource, visaTypeId, tagId, consularDistrict, products } = loaderData;
  const [searchParams, setSearchParams] = useSearchParams();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  // A filter or province change reloads this page's data in place.
  const reloading = navigation.state === 'loading' && navigation.location.pathname === pathname;

  const provinceName = provinces.find((p) => p.province_code === provinceCode)?.name ?? null;
  const filtered = visaTypeId !== null || tagId !== null;
  const resetHref = withParams(pathname, searchParams, { [PARAM.visaType]: null, [PARAM.tag]: null });

  const onProvinceChange = (code: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(PARAM.province, code);
    setSearchParams(next, { preventScrollReset: true });
  };

  return (
    <div className="browse-page">
      <CountryBanner country={country} />

      <div className="browse-container">
        <div className="browse-country-layout">
          <div className="browse-country-main">
            <section className="browse-card browse-filter-card" aria-label="筛选签证产品">
              <ProvincePicker
                provinces={provinces}
                value={provinceCode}
                source={provinceSource}
                districts={country.consular_districts}
                districtId={consularDistrict?.consular_district_id ?? null}
                keep={{ [PARAM.visaType]: searchParams.get(PARAM.visaType), [PARAM.tag]: searchParams.get(PARAM.tag) }}
                onChange={onProvinceChange}
              />
              <ProductFilters
                visaTypes={country.visa_types.map((t) => ({ id: t.visa_type_id, name: t.name }))}
                tags={country.tags.map((t) => ({ id: t.tag_id, name: t.name }))}
                visaTypeId={visaTypeId}
                tagId={tagId}
              />
            </section>

            <section aria-labelledby="browse-list-title">
              <ProductCardIcons />
              <div className="browse-list-head">
                <h2 className="browse-list-title" id="browse-list-title">
                  {country.name}签证产品<em data-testid="product-count">{products.length}</em>款
                </h2>
                <span className="browse-list-note">
                  {consularDistrict
                    ? `${provinceName ?? ''}居民 · ${consularDistrict.name}受理`
                    : country.consular_districts.length > 0
                      ? '全部领区'
                      : '全国受理'}
                  {filtered ? (
                    <Link to={resetHref} preventScrollReset>
                      清除筛选
                    </Link>
                  ) : null}
                </span>
              </div>
              <BusyRegion busy={reloading} text="正在更新签证产品">
                {products.length > 0 ? (
                  <div className="browse-products" data-testid="product-list">
                    {/* Each card hydrates in its own pass, after the filters above (a page holds dozens). */}
                    {products.map((product) => (
                      <HydrationBoundary key={product.visa_product_id}>
                        <ProductCard product={product} />
                      </HydrationBoundary>
                    ))}
                  </div>
                ) : (
                  <div className="browse-card browse-product-empty" data-testid="product-empty">
                    <InboxOutlined />
                    <div>暂无符合条件的签证产品</div>
                    {filtered ? (
                      <Link to={resetHref} preventScrollReset>
                        查看全部产品
                      </Link>
                    ) : null}
                  </div>
                )}
              </BusyRegion>
            </section>
          </div>

          <HydrationBoundary>
            <aside className="browse-aside" aria-label="服务保障">
              <div className="browse-card browse-aside-card">
                <h2 className="browse-aside-title">易签通办理保障</h2>
                <ul className="browse-aside-list">
                  {PROMISES.map((item) => (
                    <li key={item.title}>
                      <span className="browse-aside-icon" style={{ color: item.color, background: `${item.color}1a` }} aria-hidden="true">
                        {item.icon}
                      </span>
                      <span>
                        <strong>{item.title}</strong>
                        {item.text}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
              <div className="browse-card browse-aside-help">
                <h2 className="browse-aside-title">
                  <CustomerServiceOutlined /> 不确定选哪款？
                </h2>
                <p>签证顾问一对一为您推荐合适的{country.name}签证产品</p>
                <div className="browse-aside-phone">400-820-6688</div>
                <p>周一至周日 09:00-21:00</p>
              </div>
            </aside>
          </HydrationBoundary>
        </div>
      </div>
    </div>
  );
}
