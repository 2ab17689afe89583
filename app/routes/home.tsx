import './home.css';

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { HydrationBoundary } from '../components/hydration-boundary';
import {
  ArrowRightOutlined,
  CalendarOutlined,
  CameraOutlined,
  CarOutlined,
  CheckCircleFilled,
  CheckOutlined,
  CloudUploadOutlined,
  CompassOutlined,
  EnvironmentOutlined,
  FileSearchOutlined,
  GlobalOutlined,
  SafetyCertificateOutlined,
  ScanOutlined,
  SendOutlined,
  WalletOutlined,
} from '@ant-design/icons';

import { DragScrollList } from '../components/drag-scroll-list';
import { NavButton } from '../components/nav-button';
import { ProcessSteps } from '../components/process-steps';
import { DestinationCard } from '../features/catalogue/browse/country-card';
import type { RouteHandle } from '../lib/route-handle';
import type { Route } from './+types/home';

export const handle: RouteHandle = { headerTheme: 'transparent', paintFirst: true };

export const meta: Route.MetaFunction = () => [
  { title: '易签通 - 一站式在线签证办理平台' },
  {
    name: 'description',
    content:
      '易签通提供全球多国旅游、商务、探亲签证在线办理，可查询使馆假期、所需材料、办理流程、办理条件、签证费用与出行时间，资料在线上传、预约面签、护照顺丰寄回。',
  },
];

/** Countries named on a continent card. */
const TOP_COUNTRIES_PER_CONTINENT = 4;
/** Destinations in the '热门目的地' strip. */
const HOT_DESTINATIONS = 12;

export async function loader({ context }: Route.LoaderArgs) {
  const continents = await context.catalogue.continents();
  return {
    continents: continents.map((continent) => ({
      id: continent.continent_id,
      name: continent.name,
      en: continent.name_en,
      countryCount: continent.countries.length,
      topCountries: continent.countries.slice(0, TOP_COUNTRIES_PER_CONTINENT).map((country) => country.name),
    })),
    hot: hotDestinations(
      continents.map((continent) => continent.countries),
      HOT_DESTINATIONS,
    ),
  };
}

/**
 * The catalogue lists each continent's countries most popular first; taking
 * them in turns (each continent's first, then each one's second, …) keeps that
 * order and gives a strip that is not all one continent.
 */
function hotDestinations<T>(byContinent: T[][], limit: number): T[] {
  const picked: T[] = [];
  for (let rank = 0; picked.length < limit && byContinent.some((list) => list.length > rank); rank++) {
    for (const list of byContinent) {
      const country = list[rank];
      if (country !== undefined && picked.length < limit) picked.push(country);
    }
  }
  return picked;
}

const STEPS = [
  { title: '选择签证', content: '按目的地与签证类型挑选产品', icon: <FileSearchOutlined /> },
  { title: '上传资料', content: '拍照或扫描上传，护照自动识别填表', icon: <CloudUploadOutlined /> },
  { title: '预约面签', content: '在线选择面签 / 录指纹时间', icon: <CalendarOutlined /> },
  { title: '支付', content: '确认订单与保险后在线支付', icon: <WalletOutlined /> },
  { title: '护照寄回', content: '出签后护照顺丰寄回到家', icon: <SendOutlined /> },
];

/** The decorative order card in the hero: two steps done, the third under way. */
const TRACK = [
  { title: '资料已上传', content: '系统已自动填表' },
  { title: '材料审核通过', content: '顾问已完成审核' },
  { title: '使馆审理中', content: '出签后护照顺丰寄回' },
];

const FEATURES = [
  {
    title: '免费拍摄签证照',
    text: '按各国使馆的尺寸与底色要求在线生成合规签证照，不再为照片跑照相馆。',
    icon: <CameraOutlined />,
    color: '#ff4b4d',
  },
  {
    title: '护照免费顺丰寄送',
    text: '需要递交护照原件时，提供顺丰上门取件与寄回服务，全程可追踪物流。',
    icon: <CarOutlined />,
    color: '#3fa2f5',
  },
  {
    title: '资料扫描自动填表',
    text: '扫描护照即可自动识别并填写申请人信息；资料加密保存，常用出行人的证件在有效期内下次申请直接复用。',
    icon: <ScanOutlined />,
    color: '#14bc99',
  },
  {
    title: '赠送拒签险',
    text: '符合条件的订单赠送拒签险，如遇拒签按保险条款全额赔付，出行计划更安心。',
    icon: <SafetyCertificateOutlined />,
    color: '#fb8339',
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { continents, hot } = loaderData;
  return (
    <div className="home-page">
      <section className="home-hero">
        <div className="home-container home-hero-inner">
          <div className="home-hero-grid">
            <div className="home-hero-text">
              <h1 className="home-hero-title">一站式在线签证办理</h1>
              <p className="home-hero-sub">覆盖全球多个国家的旅游、商务、探亲签证。材料清单、办理流程、费用和使馆假期一目了然，足不出户完成申请。</p>
              <div className="home-flex home-hero-tags">
                <span className="home-hero-tag">
                  <CheckCircleFilled /> 在线上传资料
                </span>
                <span className="home-hero-tag">
                  <CheckCircleFilled /> 专人审核材料
                </span>
                <span className="home-hero-tag">
                  <CheckCircleFilled /> 办理进度实时可查
                </span>
              </div>
              <div className="home-flex home-flex--12">
                <NavButton to="/visa/continent?continent_id=0" size="large" className="home-hero-primary">
                  立即办理
                </NavButton>
                <NavButton to="/enterprise" size="large" className="home-hero-ghost">
                  企业客户
                </NavButton>
              </div>
            </div>
            <div className="home-hero-aside">
              <div className="home-hero-card" aria-hidden="true">
                <div className="home-hero-card-head">
                  <div className="home-flex home-flex--center home-flex--12">
                    <span className="home-hero-card-flag">
                      <GlobalOutlined />
                    </span>
                    <div>
                      <strong>日本单次旅游签证</strong>
                      <br />
                      <span className="home-hero-card-sub">申请人 2 位</span>
                    </div>
                  </div>
                  <span className="home-hero-card-status">办理中</span>
                </div>
                <ol className="home-track">
                  {TRACK.map((step, index) => (
                    <li key={step.title} className={index < 2 ? 'home-track-step home-track-step--done' : 'home-track-step home-track-step--current'}>
                      <span className="home-track-dot">{index < 2 ? <CheckOutlined /> : index + 1}</span>
                      <span className="home-track-body">
                        <span className="home-track-title">{step.title}</span>
                        <span className="home-track-content">{step.content}</span>
                      </span>
                    </li>
                  ))}
                </ol>
              </div>
            </div>
          </div>
        </div>
      </section>

      <HomeSection title="按目的地选择签证" desc="选择大洲，查看各国签证产品、材料与费用">
        <div className="home-continents">
          {continents.map((c) => (
            <div key={c.id} className="home-continent-cell">
              <Link to={`/visa/continent?continent_id=${c.id}`} className="home-continent-link" aria-label={`查看${c.name}签证`}>
                <div className={`home-continent home-continent-${c.id}`} data-testid="home-continent">
                  <span className="home-continent-icon">{c.id === 0 ? <CompassOutlined /> : c.id === 1 ? <GlobalOutlined /> : <EnvironmentOutlined />}</span>
                  <div>
                    <div className="home-continent-name">{c.name}</div>
                    <div className="home-continent-en">{c.en}</div>
                    <div className="home-continent-countries">{c.topCountries.length > 0 ? c.topCountries.join(' · ') : '更多国家即将上线'}</div>
                  </div>
                  <span className="home-continent-more">
                    {c.countryCount > 0 ? `${c.countryCount}个国家和地区` : '查看签证'} <ArrowRightOutlined />
                  </span>
                </div>
              </Link>
            </div>
          ))}
        </div>
        {hot.length > 0 ? (
          <div className="browse-hot" data-testid="hot-destinations">
            <div className="browse-hot-head">
              <h3 className="browse-hot-title">热门目的地</h3>
              <Link to="/visa/continent" className="browse-hot-more">
                全部国家 <ArrowRightOutlined />
              </Link>
            </div>
            <DragScrollList className="browse-destinations" aria-label="热门目的地">
              {hot.map((country) => (
                <DestinationCard key={country.visa_country_id} country={country} />
              ))}
            </DragScrollList>
          </div>
        ) : null}
      </HomeSection>

      <HomeSection title="五步办好签证" desc="全程在线操作，每一步都有提醒，进度随时可查" alt>
        <div className="home-steps-wrap">
          <ProcessSteps steps={STEPS} />
        </div>
      </HomeSection>

      <HomeSection title="为什么选择易签通" desc="把繁琐留给我们，把轻松留给旅途">
        <ul className="home-features">
          {FEATURES.map((f) => (
            <li key={f.title} className="home-feature">
              <span className="home-feature-icon" style={{ color: f.color, background: `${f.color}1a` }}>
                {f.icon}
              </span>
              <h3 className="home-feature-title">{f.title}</h3>
              <p className="home-feature-text">{f.text}</p>
            </li>
          ))}
        </ul>
      </HomeSection>

      <HomeSection alt>
        <div className="home-enterprise">
          <div className="home-enterprise-grid">
            <div>
              <h2 className="home-enterprise-title">企业与旅行社，批量办理更省心</h2>
              <p className="home-enterprise-text">为企业差旅和旅行社团队提供批量申请、管理员账号、统一结算与开票，以及专属签证顾问一对一服务。</p>
              <div className="home-flex home-enterprise-points">
                <span>
                  <CheckCircleFilled />
                  员工批量申请
                </span>
                <span>
                  <CheckCircleFilled />
                  订单统一管理
                </span>
                <span>
                  <CheckCircleFilled />
                  合并结算开票
                </span>
              </div>
            </div>
            <div className="home-flex home-flex--12 home-enterprise-actions">
              <NavButton to="/enterprise" type="primary" size="large">
                了解企业版
              </NavButton>
              <NavButton to="/cooperation" size="large" ghost>
                商务合作
              </NavButton>
            </div>
          </div>
        </div>
      </HomeSection>
    </div>
  );
}

/**
 * A section below the hero, with its heading when it has one. It hydrates after
 * the rest of the page, in a pass of its own (app/components/hydration-boundary.tsx):
 * none of it is on a phone's first screen.
 */
function HomeSection({ title, desc, alt = false, children }: { title?: string; desc?: string; alt?: boolean; children: ReactNode }) {
  return (
    <HydrationBoundary>
      <section className={alt ? 'home-section home-section-alt' : 'home-section'}>
        <div className="home-container">
          {title ? (
            <div className="home-section-head">
              <h2 className="home-section-title">{title}</h2>
              <p className="home-section-desc">{desc}</p>
            </div>
          ) : null}
          {children}
        </div>
      </section>
    </HydrationBoundary>
  );
}
