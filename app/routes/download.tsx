import './download.css';

import { Link } from 'react-router';
import { Button, Card, Col, Flex, Row, Typography } from 'antd';
import {
  AndroidOutlined,
  AppleOutlined,
  BellOutlined,
  CameraOutlined,
  CheckCircleFilled,
  CloudUploadOutlined,
  FileSearchOutlined,
  QrcodeOutlined,
  SearchOutlined,
  WechatOutlined,
} from '@ant-design/icons';

import type { Route } from './+types/download';
import { AntdScope } from '../components/antd-scope';

const { Title, Paragraph, Text } = Typography;

export const handle = { headerTheme: 'transparent' };

export const meta: Route.MetaFunction = () => [
  { title: 'App 下载 - 易签通' },
  {
    name: 'description',
    content: '下载易签通 App 或使用易签通微信小程序，随时随地查询签证材料、上传资料、预约面签并跟踪签证办理进度。',
  },
];

const PLATFORMS = [
  {
    key: 'ios',
    title: 'iOS 版',
    icon: <AppleOutlined />,
    bg: 'linear-gradient(135deg, #1f2a44, #4a5677)',
    text: '适用于 iPhone。上架后可在 App Store 搜索“易签通”下载，支持证件拍照识别、材料上传与办理进度提醒。',
  },
  {
    key: 'android',
    title: 'Android 版',
    icon: <AndroidOutlined />,
    bg: 'linear-gradient(135deg, #14bc99, #3fa2f5)',
    text: '适用于 Android 手机。上架后可在各大应用商店搜索“易签通”下载，功能与 iOS 版一致。',
  },
];

const FEATURES = [
  { title: '查签证', text: '按国家查看材料清单、流程、费用与使馆假期', icon: <FileSearchOutlined /> },
  { title: '拍照上传', text: '护照扫描自动识别填表，证件有效期内可复用', icon: <CameraOutlined /> },
  { title: '随时补材料', text: '材料被退回时手机上即可重新上传', icon: <CloudUploadOutlined /> },
  { title: '进度提醒', text: '审核、面签、出签、寄回节点及时通知', icon: <BellOutlined /> },
];

// In antd's scope: the page renders antd throughout (app/components/antd-scope.tsx).
export default function Download() {
  return (
    <AntdScope>
      <div className="dl-page">
        <section className="dl-hero">
          <div className="dl-container">
            <Row gutter={[32, 40]} align="middle">
              <Col xs={24} md={14}>
                <Title level={1} className="dl-hero-title">
                  易签通 App 与小程序
                  <br />
                  签证办理随身带
                </Title>
                <Paragraph className="dl-hero-sub" style={{ marginBottom: 0 }}>
                  在手机上选择签证、拍照上传资料、预约面签并随时查看办理进度。个人用户推荐使用微信小程序办理，无需下载安装。
                </Paragraph>
                <Flex wrap gap={20} className="dl-hero-points">
                  <span>
                    <CheckCircleFilled />
                    免费拍摄签证照
                  </span>
                  <span>
                    <CheckCircleFilled />
                    护照免费顺丰寄送
                  </span>
                  <span>
                    <CheckCircleFilled />
                    赠送拒签险
                  </span>
                </Flex>
                <Flex wrap gap={12} style={{ marginTop: 32 }}>
                  <Button size="large" icon={<AppleOutlined />} disabled className="dl-store-btn">
                    App Store 即将上架
                  </Button>
                  <Button size="large" icon={<AndroidOutlined />} disabled className="dl-store-btn">
                    安卓版即将上架
                  </Button>
                </Flex>
              </Col>
              <Col xs={24} md={10}>
                <div className="dl-phone" aria-hidden="true">
                  <div className="dl-phone-screen">
                    <div className="dl-phone-top">
                      <div className="dl-phone-top-title">易签通</div>
                      <div className="dl-phone-top-sub">一站式在线签证办理</div>
                      <div className="dl-phone-search">
                        <SearchOutlined /> 搜索国家或地区
                      </div>
                    </div>
                    <div className="dl-phone-grid">
                      <span style={{ background: '#d13039' }}>亚洲</span>
                      <span style={{ background: '#2471be' }}>欧洲</span>
                      <span style={{ background: '#047e6c' }}>美洲</span>
                      <span style={{ background: '#00838f' }}>大洋洲</span>
                      <span style={{ background: '#b94f1c' }}>非洲</span>
                      <span style={{ background: '#666' }}>全部</span>
                    </div>
                    <div className="dl-phone-card">
                      <Flex justify="space-between">
                        <span>我的签证订单</span>
                        <span style={{ color: '#047e6c' }}>办理中</span>
                      </Flex>
                      <div className="dl-phone-card-bar">
                        <i style={{ width: '60%' }} />
                      </div>
                    </div>
                    <div className="dl-phone-card">
                      <Flex justify="space-between">
                        <span>面签预约</span>
                        <span style={{ color: '#b94f1c' }}>待选择</span>
                      </Flex>
                      <div className="dl-phone-card-bar">
                        <i style={{ width: '30%', background: '#b94f1c' }} />
                      </div>
                    </div>
                  </div>
                </div>
              </Col>
            </Row>
          </div>
        </section>

        <section className="dl-section">
          <div className="dl-container">
            <div className="dl-section-head">
              <Title level={2} className="dl-section-title">
                选择适合你的方式
              </Title>
              <Text className="dl-section-desc">App 或微信小程序，按你的使用习惯任选其一</Text>
            </div>
            <Row gutter={[16, 16]}>
              {PLATFORMS.map((p) => (
                <Col key={p.key} xs={24} md={8}>
                  <Card className="dl-platform">
                    <span className="dl-platform-icon" style={{ background: p.bg }}>
                      {p.icon}
                    </span>
                    <Title level={3} className="dl-platform-title">
                      {p.title}
                    </Title>
                    <Paragraph className="dl-platform-text">{p.text}</Paragraph>
                    <div className="dl-platform-foot">
                      <Button block disabled>
                        即将上架
                      </Button>
                    </div>
                  </Card>
                </Col>
              ))}
              <Col xs={24} md={8}>
                <Card className="dl-platform">
                  <span className="dl-platform-icon" style={{ background: 'linear-gradient(135deg, #14bc99, #07c160)' }}>
                    <WechatOutlined />
                  </span>
                  <Title level={3} className="dl-platform-title">
                    微信小程序
                  </Title>
                  <Paragraph className="dl-platform-text" style={{ marginBottom: 0 }}>
                    无需下载安装，在微信中即可完成选签证、上传资料、预约面签、支付与查询进度。
                  </Paragraph>
                  <div className="dl-qr-hint">
                    <QrcodeOutlined />
                    <Text>
                      在任意<Link to="/visa/continent?continent_id=0">签证产品页</Link>
                      点击申请，用微信扫描页面上的二维码，即可打开小程序继续办理。
                    </Text>
                  </div>
                </Card>
              </Col>
            </Row>
          </div>
        </section>

        <section className="dl-section dl-section-alt">
          <div className="dl-container">
            <div className="dl-section-head">
              <Title level={2} className="dl-section-title">
                手机上能做什么
              </Title>
              <Text className="dl-section-desc">从查询到出签，全流程在掌上完成</Text>
            </div>
            <Row gutter={[16, 16]}>
              {FEATURES.map((f) => (
                <Col key={f.title} xs={12} lg={6}>
                  <div className="dl-feature">
                    {f.icon}
                    <div className="dl-feature-title">{f.title}</div>
                    <div className="dl-feature-text">{f.text}</div>
                  </div>
                </Col>
              ))}
            </Row>
          </div>
        </section>
      </div>
    </AntdScope>
  );
}
