import './about.css';

import { Link } from 'react-router';
import { Card, Col, Row, Typography } from 'antd';
import {
  InfoCircleOutlined,
  EyeOutlined,
  FileProtectOutlined,
  GlobalOutlined,
  LockOutlined,
  MailOutlined,
  MobileOutlined,
  PhoneOutlined,
  SafetyCertificateOutlined,
  ShopOutlined,
  TeamOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';

import type { Route } from './+types/about';
import { AntdScope } from '../components/antd-scope';

const { Title, Paragraph, Text } = Typography;

export const meta: Route.MetaFunction = () => [
  { title: '关于我们 - 易签通' },
  {
    name: 'description',
    content: '易签通是面向中文旅行者与企业客户的在线自助签证办理平台，提供多国旅游、商务、探亲签证的材料指引、在线申请、面签预约与进度跟踪服务。',
  },
];

const PROMISES = [
  {
    title: '价格透明',
    text: '签证费、服务费与可选增值服务在下单前逐项列明，不设隐藏收费，需补差价时会提前告知原因。',
    icon: <FileProtectOutlined />,
    color: '#ff4b4d',
  },
  {
    title: '材料专人审核',
    text: '上传的每一份材料都由签证顾问审核，不符合要求时及时说明原因与修改建议，减少因材料问题被拒签的风险。',
    icon: <SafetyCertificateOutlined />,
    color: '#14bc99',
  },
  {
    title: '进度实时可查',
    text: '从材料审核、递交使馆到出签寄回，每个节点都会在订单中更新，并通过短信或消息提醒。',
    icon: <EyeOutlined />,
    color: '#3fa2f5',
  },
  {
    title: '信息安全',
    text: '护照与身份资料加密存储，仅用于签证办理，严格按照《用户协议》与相关法律法规处理个人信息。',
    icon: <LockOutlined />,
    color: '#fb8339',
  },
];

const HIGHLIGHTS = [
  { big: '覆盖全球', text: '亚洲、欧洲、美洲、大洋洲、非洲多个国家和地区的常用签证', color: '#d13039' },
  { big: '多种签证类型', text: '旅游、商务、探亲访友等常见出行目的均可办理', color: '#2471be' },
  { big: '个人与企业', text: '既服务个人旅行者，也服务企业差旅与旅行社团队', color: '#047e6c' },
  { big: '线上全流程', text: '选签证、传资料、约面签、付款、查进度都在线完成', color: '#b94f1c' },
];

// In antd's scope: the page renders antd throughout (app/components/antd-scope.tsx).
export default function About() {
  return (
    <AntdScope>
      <div className="about-page">
        <section className="about-hero">
          <div className="about-container">
            <Title level={1} className="about-hero-title">
              关于易签通
            </Title>
            <Paragraph className="about-hero-sub" style={{ marginBottom: 0 }}>
              让每一次出境申请都简单、透明、可预期。我们把签证办理中繁琐的材料准备、表格填写、预约与寄送环节搬到线上，帮助中文旅行者与企业客户更轻松地走向世界。
            </Paragraph>
          </div>
        </section>

        <section className="about-section">
          <div className="about-container">
            <Row gutter={[32, 32]}>
              <Col xs={24} lg={14} className="about-intro">
                <Title level={2} className="about-section-title">
                  我们是谁
                </Title>
                <Text className="about-section-desc">一家专注于在线签证服务的互联网平台</Text>
                <Paragraph>
                  易签通是一个在线自助签证办理平台。旅行者可以按大洲、国家和签证类型浏览签证产品，查看所需材料清单、办理流程、费用、使馆假期以及其他用户的真实评价，然后在线为一位或多位申请人下单。
                </Paragraph>
                <Paragraph>
                  下单后，申请人可以在线上传材料、选择面签或录指纹时间、确认保险与回寄地址并完成支付；之后在订单中跟踪进度，按提示补传材料、邮寄纸质材料或查看面签通知。除了网站，用户也可以通过易签通
                  App 与微信小程序随时办理和查询。
                </Paragraph>
                <Paragraph style={{ marginBottom: 0 }}>
                  我们同时为企业和旅行社提供企业版服务与商务合作方案，支持员工批量申请、统一管理订单与开票，并配备专属签证顾问。
                </Paragraph>
              </Col>
              <Col xs={24} lg={10}>
                <div className="about-values">
                  <Title level={4} style={{ marginTop: 0 }}>
                    我们的使命与愿景
                  </Title>
                  <div className="about-values-item">
                    <GlobalOutlined />
                    <div>
                      <Text strong>使命</Text>
                      <Paragraph type="secondary" style={{ margin: 0 }}>
                        用技术降低签证办理的门槛，让出境旅行的第一步不再困难。
                      </Paragraph>
                    </div>
                  </div>
                  <div className="about-values-item">
                    <ThunderboltOutlined />
                    <div>
                      <Text strong>做法</Text>
                      <Paragraph type="secondary" style={{ margin: 0 }}>
                        标准化材料清单、护照识别填表、证件一次上传有效期内反复使用，减少重复劳动。
                      </Paragraph>
                    </div>
                  </div>
                  <div className="about-values-item">
                    <TeamOutlined />
                    <div>
                      <Text strong>团队</Text>
                      <Paragraph type="secondary" style={{ margin: 0 }}>
                        由熟悉各国使领馆要求的签证顾问与产品、技术团队组成，线上线下协同服务。
                      </Paragraph>
                    </div>
                  </div>
                </div>
              </Col>
            </Row>
          </div>
        </section>

        <section className="about-section about-section-alt">
          <div className="about-container">
            <Title level={2} className="about-section-title">
              服务承诺
            </Title>
            <Text className="about-section-desc">我们对每一位用户的郑重承诺</Text>
            <Row gutter={[16, 16]}>
              {PROMISES.map((p) => (
                <Col key={p.title} xs={24} sm={12} lg={6}>
                  <Card className="about-card">
                    <span className="about-card-icon" style={{ color: p.color, background: `${p.color}1a` }}>
                      {p.icon}
                    </span>
                    <Title level={4} className="about-card-title">
                      {p.title}
                    </Title>
                    <Paragraph className="about-card-text">{p.text}</Paragraph>
                  </Card>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section className="about-section">
          <div className="about-container">
            <Title level={2} className="about-section-title">
              平台概况
            </Title>
            <Text className="about-section-desc">我们能为你做什么</Text>
            <Row gutter={[16, 16]}>
              {HIGHLIGHTS.map((h) => (
                <Col key={h.big} xs={24} sm={12} lg={6}>
                  <div className="about-highlight">
                    <div className="about-highlight-big" style={{ color: h.color }}>
                      {h.big}
                    </div>
                    <div className="about-highlight-text">{h.text}</div>
                  </div>
                </Col>
              ))}
            </Row>
          </div>
        </section>

        <section className="about-section about-section-alt">
          <div className="about-container">
            <Title level={2} className="about-section-title">
              联系我们
            </Title>
            <Text className="about-section-desc">如有任何问题或建议，欢迎随时与我们联系</Text>
            <Card style={{ borderRadius: 16 }}>
              <Row gutter={[24, 24]}>
                <Col xs={24} sm={12} lg={5}>
                  <div className="about-contact-item">
                    <span className="about-contact-icon">
                      <PhoneOutlined />
                    </span>
                    <div>
                      <Text type="secondary">客服电话</Text>
                      <div className="about-contact-value">
                        <a href="tel:4008206688">400-820-6688</a>
                      </div>
                    </div>
                  </div>
                </Col>
                <Col xs={24} sm={12} lg={8}>
                  <div className="about-contact-item">
                    <span className="about-contact-icon">
                      <MailOutlined />
                    </span>
                    <div style={{ minWidth: 0 }}>
                      <Text type="secondary">客服邮箱</Text>
                      <div className="about-contact-value">
                        <a href="mailto:service@yiqiantong.example">service@yiqiantong.example</a>
                      </div>
                    </div>
                  </div>
                </Col>
                <Col xs={24} sm={12} lg={5}>
                  <div className="about-contact-item">
                    <span className="about-contact-icon">
                      <ShopOutlined />
                    </span>
                    <div>
                      <Text type="secondary">商务合作</Text>
                      <div className="about-contact-value">
                        <Link to="/cooperation">查看合作方式</Link>
                      </div>
                    </div>
                  </div>
                </Col>
                <Col xs={24} sm={12} lg={6}>
                  <div className="about-contact-item">
                    <span className="about-contact-icon">
                      <MobileOutlined />
                    </span>
                    <div>
                      <Text type="secondary">App 与小程序</Text>
                      <div className="about-contact-value">
                        <Link to="/download">随时随地办理</Link>
                      </div>
                    </div>
                  </div>
                </Col>
              </Row>
              <Paragraph type="secondary" style={{ margin: '24px 0 0' }}>
                <InfoCircleOutlined /> 企业与旅行社批量办理签证，请了解 <Link to="/enterprise">易签通企业版</Link>。
              </Paragraph>
            </Card>
          </div>
        </section>
      </div>
    </AntdScope>
  );
}
