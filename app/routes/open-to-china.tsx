import './open-to-china.css';

import type { ReactNode } from 'react';
import { Alert, Card, Col, Collapse, Flex, Row, Typography } from 'antd';
import {
  CalendarOutlined,
  CheckCircleOutlined,
  CloseCircleOutlined,
  EnvironmentOutlined,
  ExclamationCircleOutlined,
  GlobalOutlined,
  InfoCircleOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';

import type { Route } from './+types/open-to-china';
import { AntdScope } from '../components/antd-scope';

const { Title, Paragraph, Text } = Typography;

export const meta: Route.MetaFunction = () => [
  { title: '外国人来华免签与签证指南 - 易签通' },
  {
    name: 'description',
    content: '外国人来华政策概览：240 小时过境免签、单方面免签与互免签证协定的适用条件、停留期限与常见所需材料，具体以出入境管理部门最新公告为准。',
  },
];

/** When the policy summary below was compiled from public announcements; update it with the text. */
const POLICY_AS_OF = '2025 年';

function Bullets({ items, ok = true }: { items: ReactNode[]; ok?: boolean }) {
  return (
    <ul className="otc-list">
      {items.map((item, i) => (
        <li key={i}>
          {ok ? <CheckCircleOutlined style={{ color: '#14bc99' }} /> : <CloseCircleOutlined style={{ color: '#ff4b4d' }} />}
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

const OTHER_POLICIES = [
  {
    title: '互免签证协定',
    text: '中国与部分国家签有互免普通护照签证协定（如新加坡、泰国等），持对方国家普通护照可免签入境，单次停留期限和累计停留天数以协定为准。',
  },
  {
    title: '24 小时直接过境',
    text: '乘坐国际航班在中国境内直接过境、停留不超过 24 小时且不出机场的，一般可免办边检手续；需要离开口岸限定区域的，应按规定办理临时入境手续。',
  },
  {
    title: '区域性免签政策',
    text: '海南入境免签、外国旅游团乘邮轮入境免签、港澳地区外国旅游团入境广东等区域性政策，适用条件、停留范围与期限各不相同。',
  },
];

const FAQ = [
  {
    key: 'round-trip',
    label: '从 A 国出发、经中国后再返回 A 国，可以使用过境免签吗？',
    children: (
      <Paragraph style={{ margin: 0 }}>
        一般不可以。过境免签要求前往“第三国（地区）”，即出发地与目的地应为不同的国家或地区。香港、澳门、台湾地区在该政策下可作为第三地。具体以边检机关的认定为准。
      </Paragraph>
    ),
  },
  {
    key: 'work',
    label: '免签入境后可以工作、留学或从事新闻采访吗？',
    children: (
      <Paragraph style={{ margin: 0 }}>
        不可以。免签入境仅适用于政策规定的事由（如旅游、商务、探亲访友、交流访问、过境等）。来华工作、学习、新闻采访等需要事先申请相应种类的签证。
      </Paragraph>
    ),
  },
  {
    key: 'extend',
    label: '免签停留期限可以延长吗？',
    children: (
      <Paragraph style={{ margin: 0 }}>
        如确有特殊情况需要延长停留，应在停留期限届满前向停留地公安机关出入境管理部门申请，是否批准以其审核结果为准。请勿逾期停留，逾期可能面临罚款等处罚并影响今后入境。
      </Paragraph>
    ),
  },
  {
    key: 'accommodation',
    label: '入境后需要办理住宿登记吗？',
    children: (
      <Paragraph style={{ margin: 0 }}>
        需要。入住酒店等旅馆时由旅馆代为办理；住在亲友家等其他场所的，应按规定在入住后 24 小时内由本人或留宿人向居住地公安机关办理住宿登记。
      </Paragraph>
    ),
  },
  {
    key: 'airline',
    label: '值机时航空公司要求出示签证怎么办？',
    children: (
      <Paragraph style={{ margin: 0 }}>
        请在值机时主动说明计划使用过境免签或免签政策入境，并出示护照及联程客票等证明。建议出行前向航空公司确认，并保留政策公告链接以备查询。
      </Paragraph>
    ),
  },
];

// In antd's scope: the page renders antd throughout (app/components/antd-scope.tsx).
export default function OpenToChina() {
  return (
    <AntdScope>
      <div className="otc-page">
        <section className="otc-hero">
          <div className="otc-container">
            <span className="otc-hero-en">Visit China</span>
            <Title level={1} className="otc-hero-title">
              外国人来华：免签与签证指南
            </Title>
            <Paragraph className="otc-hero-sub">
              邀请外国亲友、客户或合作伙伴来中国？近年来中国持续放宽入境政策，不少外国公民可以通过过境免签、单方面免签或互免签证协定入境。本页整理了常见政策的适用条件与所需材料，帮助你提前规划。
            </Paragraph>
            <Flex wrap gap={10}>
              <span className="otc-hero-chip">
                <GlobalOutlined /> 240 小时过境免签
              </span>
              <span className="otc-hero-chip">
                <SafetyCertificateOutlined /> 单方面免签
              </span>
              <span className="otc-hero-chip">
                <CalendarOutlined /> 信息整理于 {POLICY_AS_OF}
              </span>
            </Flex>
          </div>
        </section>

        <div className="otc-container otc-notice">
          <Alert
            type="warning"
            showIcon
            icon={<ExclamationCircleOutlined />}
            title="政策可能随时调整，请以官方最新公告为准"
            description={`本页内容依据截至${POLICY_AS_OF}公开发布的政策整理，仅供参考。适用国家名单、开放口岸、停留区域和期限会动态调整，出行前请务必查询国家移民管理局、中国驻外使领馆等官方渠道，一切以出入境管理部门最新公告为准。`}
          />
        </div>

        <section className="otc-section">
          <div className="otc-container">
            <Title level={2} className="otc-section-title">
              两类常见免签政策
            </Title>
            <Text className="otc-section-desc">先确认国籍与行程是否符合条件，再决定是否需要办理签证</Text>
            <Row gutter={[16, 16]}>
              <Col xs={24} lg={12}>
                <Card className="otc-policy">
                  <div className="otc-policy-head">
                    <span className="otc-policy-badge" style={{ background: 'linear-gradient(135deg, #ff4b4d, #fb8339)' }}>
                      <b>240</b>
                      <small>小时</small>
                    </span>
                    <div>
                      <Title level={3} className="otc-policy-title">
                        过境免签
                      </Title>
                      <Text type="secondary">适用于经中国前往第三国（地区）的旅客</Text>
                    </div>
                  </div>
                  <Paragraph>
                    自 2024 年 12 月 17 日起，过境免签外国人在境内的停留时间由原来的 72 小时和 144 小时统一延长为 240 小时（10
                    天），开放口岸和允许停留的区域同步扩大，并允许在适用区域内跨省（区、市）活动。
                  </Paragraph>
                  <div className="otc-list-label">基本条件</div>
                  <Bullets
                    items={[
                      '持有适用国家的有效国际旅行证件（护照）',
                      '持有 240 小时内确定日期、座位的前往第三国（地区）的联程客票',
                      '从政策开放的口岸入境、出境，并在允许停留的区域内活动',
                      '停留时间自入境次日零时起计算，不超过 240 小时',
                    ]}
                  />
                  <div className="otc-list-label">注意</div>
                  <Bullets ok={false} items={['往返同一国家（地区）的行程一般不符合条件', '不得超出允许停留的区域或期限，不得从事与过境目的不符的活动']} />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card className="otc-policy">
                  <div className="otc-policy-head">
                    <span className="otc-policy-badge" style={{ background: 'linear-gradient(135deg, #3fa2f5, #14bc99)' }}>
                      <b>30</b>
                      <small>天</small>
                    </span>
                    <div>
                      <Title level={3} className="otc-policy-title">
                        单方面免签
                      </Title>
                      <Text type="secondary">中国对部分国家持普通护照人员试行免签</Text>
                    </div>
                  </div>
                  <Paragraph>
                    自 2023 年 12 月起，中国陆续对多个国家持普通护照人员试行单方面免签政策，并多次扩大适用国家范围、延长政策期限。自 2024 年 11 月 30
                    日起，免签停留期限由 15 天延长至 30 天。
                  </Paragraph>
                  <div className="otc-list-label">基本条件</div>
                  <Bullets
                    items={[
                      '持有适用国家的有效普通护照',
                      '入境事由为商务、旅游观光、探亲访友、交流访问或过境等政策规定的事由',
                      '每次入境停留不超过 30 天',
                      '在政策有效期内入境（各国适用期限可能不同，请查询最新公告）',
                    ]}
                  />
                  <div className="otc-list-label">注意</div>
                  <Bullets ok={false} items={['来华工作、学习、新闻采访等仍需事先申请相应签证', '适用国家名单与政策有效期以官方最新公告为准']} />
                </Card>
              </Col>
            </Row>
          </div>
        </section>

        <section className="otc-section otc-section-alt">
          <div className="otc-container">
            <Title level={2} className="otc-section-title">
              其他入境便利政策
            </Title>
            <Text className="otc-section-desc">以下政策同样可能适用，请按实际国籍与行程核实</Text>
            <Row gutter={[16, 16]}>
              {OTHER_POLICIES.map((p) => (
                <Col key={p.title} xs={24} md={8}>
                  <div className="otc-other">
                    <div className="otc-other-title">
                      <EnvironmentOutlined style={{ color: '#3fa2f5', marginRight: 6 }} />
                      {p.title}
                    </div>
                    <div className="otc-other-text">{p.text}</div>
                  </div>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section className="otc-section">
          <div className="otc-container">
            <Title level={2} className="otc-section-title">
              常见所需材料
            </Title>
            <Text className="otc-section-desc">以下为一般情况下的参考清单，边检机关或使领馆可能要求补充其他材料</Text>
            <Row gutter={[16, 16]}>
              <Col xs={24} md={8}>
                <Card className="otc-doc" title="过境免签">
                  <Bullets
                    items={[
                      '有效护照（建议有效期覆盖整个行程并留有余量）',
                      '240 小时内离境、前往第三国（地区）的联程机票或船票、车票',
                      '外国人入境卡（按口岸要求填写）',
                      '住宿预订信息，便于边检询问与住宿登记',
                    ]}
                  />
                </Card>
              </Col>
              <Col xs={24} md={8}>
                <Card className="otc-doc" title="单方面免签 / 互免签证">
                  <Bullets items={['适用国家的有效普通护照', '离境机票或后续行程证明', '住宿信息与行程安排', '商务或探亲访友的，建议携带邀请方信息或邀请函']} />
                </Card>
              </Col>
              <Col xs={24} md={8}>
                <Card className="otc-doc" title="不符合免签条件时：申请签证">
                  <Bullets
                    items={[
                      '护照原件，一般需剩余有效期 6 个月以上且有空白签证页',
                      '在线填写并打印的签证申请表及符合要求的照片',
                      '在非国籍国申请的，需提供合法停留或居留证明',
                      '与签证种类相应的材料，如往返机票及酒店预订、邀请函等',
                    ]}
                  />
                </Card>
              </Col>
            </Row>
          </div>
        </section>

        <section className="otc-section otc-section-alt">
          <div className="otc-container">
            <Title level={2} className="otc-section-title">
              常见问题
            </Title>
            <Text className="otc-section-desc">出行前建议逐条核对</Text>
            <Collapse items={FAQ} defaultActiveKey={['round-trip']} className="otc-tips" />
            <div className="otc-source">
              <InfoCircleOutlined />{' '}
              官方查询渠道：国家移民管理局官方网站（www.nia.gov.cn）及其政务服务平台、中国领事服务网（cs.mfa.gov.cn）、中国驻当地使领馆网站，以及国家移民管理局
              12367 服务热线。本页信息整理于{POLICY_AS_OF}，以出入境管理部门最新公告为准。
            </div>
          </div>
        </section>
      </div>
    </AntdScope>
  );
}
