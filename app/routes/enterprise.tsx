import './enterprise.css';

import { Link } from 'react-router';
import { Button, Card, Col, Flex, Row, Typography } from 'antd';
import {
  AccountBookOutlined,
  CheckCircleFilled,
  CloudUploadOutlined,
  CustomerServiceOutlined,
  FileSearchOutlined,
  IdcardOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
  UserAddOutlined,
  UserSwitchOutlined,
  WalletOutlined,
} from '@ant-design/icons';

import { LoginIcon } from '../components/login-icon';
import { NavButton } from '../components/nav-button';
import { ProcessSteps } from '../components/process-steps';
import { openLoginDialog } from '../lib/session';
import type { Route } from './+types/enterprise';
import { AntdScope } from '../components/antd-scope';

const { Title, Paragraph, Text } = Typography;

export const meta: Route.MetaFunction = () => [
  { title: '企业版 - 易签通' },
  {
    name: 'description',
    content: '易签通企业版为企业与旅行社提供员工批量签证申请、管理员账号、订单与发票合并管理及专属签证顾问服务，让团队出境更高效。',
  },
];

const FEATURES = [
  {
    title: '员工批量申请',
    text: '一次为多位员工或团员创建签证订单，按申请人分别上传材料，统一跟踪办理进度。',
    icon: <TeamOutlined />,
    color: '#ff4b4d',
  },
  {
    title: '管理员账号',
    text: '企业使用管理员账号登录网站，集中管理员工资料与订单，资料一次录入、后续出差直接复用。',
    icon: <UserSwitchOutlined />,
    color: '#3fa2f5',
  },
  {
    title: '订单与发票合并',
    text: '企业名下订单集中查看与支付，按需合并结算并统一开具发票，便于财务报销与对账。',
    icon: <AccountBookOutlined />,
    color: '#14bc99',
  },
  {
    title: '专属签证顾问',
    text: '配备专属顾问跟进商务签证、邀请函与加急需求，材料问题第一时间沟通处理。',
    icon: <CustomerServiceOutlined />,
    color: '#fb8339',
  },
];

const FLOW = [
  { title: '开通企业账号', content: '联系我们开通管理员账号', icon: <UserAddOutlined /> },
  { title: '登录企业版', content: '使用管理员账号登录网站', icon: <LoginIcon /> },
  { title: '选择签证下单', content: '为一位或多位员工创建订单', icon: <FileSearchOutlined /> },
  { title: '上传材料', content: '按申请人上传并复用资料', icon: <CloudUploadOutlined /> },
  { title: '统一支付跟踪', content: '集中支付、查看进度与发票', icon: <WalletOutlined /> },
];

const CONSOLE_ROWS = [
  { name: '张', label: '员工 A · 日本商务签证', tag: '材料审核中', color: '#3fa2f5' },
  { name: '李', label: '员工 B · 申根商务签证', tag: '已预约面签', color: '#fb8339' },
  { name: '王', label: '员工 C · 美国商务签证', tag: '已出签', color: '#14bc99' },
];

// In antd's scope: the page renders antd throughout (app/components/antd-scope.tsx).
export default function Enterprise() {
  return (
    <AntdScope>
      <div className="ent-page">
        <section className="ent-hero">
          <div className="ent-container">
            <Row gutter={[32, 32]} align="middle">
              <Col xs={24} md={14}>
                <span className="ent-hero-badge">易签通企业版</span>
                <Title level={1} className="ent-hero-title">
                  团队出境，签证一站管理
                </Title>
                <Paragraph className="ent-hero-sub">
                  为企业差旅与旅行社团队打造：批量为员工申请签证，管理员统一管理资料、订单与发票，专属顾问全程跟进。
                </Paragraph>
                <Flex wrap gap={12} style={{ marginTop: 28 }}>
                  <Button type="primary" size="large" icon={<LoginIcon />} onClick={openLoginDialog}>
                    登录企业版
                  </Button>
                  <NavButton to="/cooperation" size="large" className="ent-hero-ghost">
                    咨询开通
                  </NavButton>
                </Flex>
              </Col>
              <Col xs={24} md={10}>
                <div className="ent-console" aria-hidden="true">
                  <div className="ent-console-head">
                    <Text strong>
                      <IdcardOutlined /> 企业订单
                    </Text>
                    <Text type="secondary" style={{ fontSize: 12 }}>
                      管理员视图
                    </Text>
                  </div>
                  {CONSOLE_ROWS.map((r) => (
                    <div key={r.label} className="ent-console-row">
                      <Flex align="center" gap={10} style={{ minWidth: 0 }}>
                        <span className="ent-console-avatar" style={{ background: r.color }}>
                          {r.name}
                        </span>
                        <Text ellipsis>{r.label}</Text>
                      </Flex>
                      <span className="ent-console-tag" style={{ color: r.color, background: `${r.color}1a` }}>
                        {r.tag}
                      </span>
                    </div>
                  ))}
                </div>
              </Col>
            </Row>
          </div>
        </section>

        <section className="ent-section">
          <div className="ent-container">
            <div className="ent-section-head">
              <Title level={2} className="ent-section-title">
                企业版能为你做什么
              </Title>
              <Text className="ent-section-desc">把员工出境签证从零散办理变成集中管理</Text>
            </div>
            <Row gutter={[16, 16]}>
              {FEATURES.map((f) => (
                <Col key={f.title} xs={24} sm={12} lg={6}>
                  <Card className="ent-feature">
                    <span className="ent-feature-icon" style={{ color: f.color, background: `${f.color}1a` }}>
                      {f.icon}
                    </span>
                    <Title level={4} className="ent-feature-title">
                      {f.title}
                    </Title>
                    <Paragraph className="ent-feature-text">{f.text}</Paragraph>
                  </Card>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section className="ent-section ent-section-alt">
          <div className="ent-container">
            <div className="ent-section-head">
              <Title level={2} className="ent-section-title">
                使用流程
              </Title>
              <Text className="ent-section-desc">开通后即可在网站上为员工下单</Text>
            </div>
            <div className="ent-steps">
              <ProcessSteps steps={FLOW} />
            </div>
          </div>
        </section>

        <section className="ent-section">
          <div className="ent-container">
            <Row gutter={[24, 24]}>
              <Col xs={24} md={12}>
                <Card title="适合哪些客户" style={{ height: '100%', borderRadius: 16 }}>
                  {['员工经常出境出差、需要办理商务签证的企业', '组织团队游、需要为团员集中办理签证的旅行社', '举办海外会展、培训与交流活动的机构'].map((t) => (
                    <div key={t} className="ent-compare-item">
                      <CheckCircleFilled style={{ color: '#14bc99' }} />
                      <span>{t}</span>
                    </div>
                  ))}
                </Card>
              </Col>
              <Col xs={24} md={12}>
                <Card title="资料安全" style={{ height: '100%', borderRadius: 16 }}>
                  {[
                    '员工护照与证件资料加密存储，仅用于签证办理',
                    '管理员账号登录，企业资料与订单仅本企业可见',
                    '个人信息处理遵循《用户协议》与相关法律法规',
                  ].map((t) => (
                    <div key={t} className="ent-compare-item">
                      <SafetyCertificateOutlined style={{ color: '#3fa2f5' }} />
                      <span>{t}</span>
                    </div>
                  ))}
                  <Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
                    详见 <Link to="/agreement/user">《用户协议》</Link>
                  </Paragraph>
                </Card>
              </Col>
            </Row>
          </div>
        </section>

        <section className="ent-section ent-section-alt">
          <div className="ent-container">
            <div className="ent-cta">
              <Title level={2} className="ent-cta-title">
                已有企业账号？
              </Title>
              <Paragraph type="secondary">使用管理员账号登录，即可为员工批量办理签证。</Paragraph>
              <Flex wrap gap={12} justify="center">
                <Button type="primary" size="large" onClick={openLoginDialog}>
                  登录企业版
                </Button>
                <NavButton to="/cooperation" size="large">
                  咨询开通
                </NavButton>
              </Flex>
            </div>
          </div>
        </section>
      </div>
    </AntdScope>
  );
}
