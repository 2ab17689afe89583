import './cooperation.css';

import type { CSSProperties } from 'react';
import { Button, Card, Col, Flex, Row, Typography } from 'antd';
import {
  ApiOutlined,
  AuditOutlined,
  BankOutlined,
  CheckOutlined,
  CustomerServiceOutlined,
  FileDoneOutlined,
  GlobalOutlined,
  MailOutlined,
  PhoneOutlined,
  ShareAltOutlined,
  ShopOutlined,
  SolutionOutlined,
  SyncOutlined,
  TeamOutlined,
} from '@ant-design/icons';

import { ProcessSteps } from '../components/process-steps';
import type { Route } from './+types/cooperation';
import { AntdScope } from '../components/antd-scope';

const { Title, Paragraph, Text } = Typography;

const PHONE = '400-820-6688';
const EMAIL = 'service@yiqiantong.example';

export const meta: Route.MetaFunction = () => [
  { title: '商务合作 - 易签通' },
  {
    name: 'description',
    content: '易签通面向旅行社、OTA 平台与企业客户开放签证服务合作，支持 API 对接、签证产品分销与企业差旅签证办理，欢迎洽谈合作。',
  },
];

const MODELS = [
  {
    key: 'api',
    title: 'API 对接',
    for: '适合 OTA 平台、出行类 App 与自有系统的合作伙伴',
    icon: <ApiOutlined />,
    accent: '#3fa2f5',
    points: [
      '签证产品、材料清单、价格与使馆假期等数据接口',
      '下单、材料上传、订单状态回传全流程接口',
      '请求签名校验，提供测试环境与接入文档',
      '技术对接专人支持，协助联调与上线',
    ],
  },
  {
    key: 'distribution',
    title: '分销合作',
    for: '适合旅行社、门店与出境游产品供应商',
    icon: <ShareAltOutlined />,
    accent: '#ff4b4d',
    points: [
      '直接分销平台签证产品，与线路产品打包销售',
      '为团队游客批量收集材料并统一提交',
      '专属分销价格与结算方式，按合作协议执行',
      '小程序码与推广物料支持，客户可自助办理',
    ],
  },
  {
    key: 'business-travel',
    title: '企业差旅',
    for: '适合有员工出境出差需求的企业',
    icon: <BankOutlined />,
    accent: '#14bc99',
    points: [
      '企业版管理员账号，为员工批量申请签证',
      '员工资料集中保存，再次出差可直接复用',
      '订单集中管理，合并结算与开具发票',
      '专属签证顾问跟进商务签证与邀请函材料',
    ],
  },
];

const BENEFITS = [
  {
    title: '丰富的签证产品',
    text: '覆盖亚洲、欧洲、美洲、大洋洲、非洲多个国家和地区的旅游、商务、探亲签证。',
    icon: <GlobalOutlined />,
  },
  {
    title: '专业材料审核',
    text: '签证顾问逐份审核材料，及时反馈补充与修改意见，降低因材料问题造成的拒签。',
    icon: <AuditOutlined />,
  },
  {
    title: '流程透明可追踪',
    text: '订单每个节点的状态都可查询，合作伙伴与终端客户都能及时了解办理进度。',
    icon: <SyncOutlined />,
  },
  {
    title: '省去重复劳动',
    text: '护照扫描自动识别填表，常用出行人的证件保存后可复用，减少合作伙伴的人工录入与沟通成本。',
    icon: <FileDoneOutlined />,
  },
  {
    title: '多端服务',
    text: '网站、App 与微信小程序多端可用，终端客户可通过扫码自助上传资料与查询进度。',
    icon: <TeamOutlined />,
  },
  {
    title: '专属对接支持',
    text: '为合作伙伴配备商务与客服对接人，处理合作中的业务、结算与售后问题。',
    icon: <CustomerServiceOutlined />,
  },
];

const PROCESS = [
  { title: '提交合作意向', content: '通过电话或邮件联系我们', icon: <SolutionOutlined /> },
  { title: '需求沟通', content: '了解业务规模与合作方式', icon: <TeamOutlined /> },
  { title: '确定方案', content: '商定产品范围、价格与结算', icon: <FileDoneOutlined /> },
  { title: '签署协议', content: '签订合作协议并开通账号', icon: <AuditOutlined /> },
  { title: '对接上线', content: '完成技术对接或培训后上线', icon: <ApiOutlined /> },
];

// In antd's scope: the page renders antd throughout (app/components/antd-scope.tsx).
export default function Cooperation() {
  return (
    <AntdScope>
      <div className="coop-page">
        <section className="coop-hero">
          <div className="coop-container">
            <Title level={1} className="coop-hero-title">
              商务合作
            </Title>
            <Paragraph className="coop-hero-sub" style={{ marginBottom: 0 }}>
              我们欢迎旅行社、OTA 平台与企业客户与易签通携手合作。无论是把签证服务接入你的平台、分销签证产品，还是为员工办理出差签证，都可以找到合适的合作方式。
            </Paragraph>
            <Flex wrap gap={10} className="coop-hero-partners">
              <span className="coop-hero-partner">
                <ShopOutlined /> 旅行社
              </span>
              <span className="coop-hero-partner">
                <GlobalOutlined /> OTA 平台
              </span>
              <span className="coop-hero-partner">
                <BankOutlined /> 企业客户
              </span>
            </Flex>
            <Flex wrap gap={12} style={{ marginTop: 28 }}>
              <Button size="large" className="coop-hero-btn" href={`tel:${PHONE.replace(/-/g, '')}`}>
                电话咨询
              </Button>
              <Button size="large" ghost href={`mailto:${EMAIL}`}>
                发送邮件
              </Button>
            </Flex>
          </div>
        </section>

        <section className="coop-section">
          <div className="coop-container">
            <div className="coop-section-head">
              <Title level={2} className="coop-section-title">
                合作模式
              </Title>
              <Text className="coop-section-desc">三种方式，按你的业务形态灵活选择</Text>
            </div>
            <Row gutter={[16, 16]}>
              {MODELS.map((m) => (
                <Col key={m.key} xs={24} md={8}>
                  <Card className="coop-model" style={{ '--coop-accent': m.accent } as CSSProperties}>
                    <span className="coop-model-icon">{m.icon}</span>
                    <Title level={3} className="coop-model-title">
                      {m.title}
                    </Title>
                    <Text className="coop-model-for">{m.for}</Text>
                    <ul className="coop-model-list">
                      {m.points.map((p) => (
                        <li key={p}>
                          <CheckOutlined />
                          <span>{p}</span>
                        </li>
                      ))}
                    </ul>
                  </Card>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section className="coop-section coop-section-alt">
          <div className="coop-container">
            <div className="coop-section-head">
              <Title level={2} className="coop-section-title">
                合作优势
              </Title>
              <Text className="coop-section-desc">把签证服务交给专业的团队</Text>
            </div>
            <Row gutter={[16, 16]}>
              {BENEFITS.map((b) => (
                <Col key={b.title} xs={24} sm={12} lg={8}>
                  <div className="coop-benefit">
                    <span className="coop-benefit-icon">{b.icon}</span>
                    <div>
                      <div className="coop-benefit-title">{b.title}</div>
                      <div className="coop-benefit-text">{b.text}</div>
                    </div>
                  </div>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section className="coop-section">
          <div className="coop-container">
            <div className="coop-section-head">
              <Title level={2} className="coop-section-title">
                合作流程
              </Title>
              <Text className="coop-section-desc">从沟通到上线，全程专人对接</Text>
            </div>
            <div className="coop-steps">
              <ProcessSteps steps={PROCESS} />
            </div>
          </div>
        </section>

        <section className="coop-section coop-section-alt">
          <div className="coop-container">
            <div className="coop-contact">
              <Row gutter={[24, 24]} align="middle">
                <Col xs={24} lg={10}>
                  <Title level={2} className="coop-contact-title">
                    联系商务合作
                  </Title>
                  <Paragraph className="coop-contact-text" style={{ marginBottom: 0 }}>
                    请在邮件中注明公司名称、业务类型、预计办理量与联系方式，我们会尽快安排专人与你联系。
                  </Paragraph>
                </Col>
                <Col xs={24} lg={14}>
                  <Row gutter={[12, 12]}>
                    <Col xs={24} sm={10}>
                      <div className="coop-contact-item">
                        <PhoneOutlined />
                        <div style={{ minWidth: 0 }}>
                          <div className="coop-contact-label">合作热线</div>
                          <a href={`tel:${PHONE.replace(/-/g, '')}`}>{PHONE}</a>
                        </div>
                      </div>
                    </Col>
                    <Col xs={24} sm={14}>
                      <div className="coop-contact-item">
                        <MailOutlined />
                        <div style={{ minWidth: 0 }}>
                          <div className="coop-contact-label">合作邮箱</div>
                          <a href={`mailto:${EMAIL}`}>{EMAIL}</a>
                        </div>
                      </div>
                    </Col>
                  </Row>
                </Col>
              </Row>
            </div>
          </div>
        </section>
      </div>
    </AntdScope>
  );
}
