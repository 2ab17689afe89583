// Developer showcase of the shared elements of spec §2.6 (dialog, loading overlay,
// image viewer, drag-scroll list, select with '全部', trimmed input). Exercised by
// tests/e2e/shared-elements.spec.ts; never served when APP_ENV is 'prod'.
import { Button, Card, Form, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, data } from 'react-router';
import { AppDialog } from '../components/app-dialog';
import { DragScrollList } from '../components/drag-scroll-list';
import { ImageThumb, type ViewerImage } from '../components/image-viewer';
import { LoadingOverlay } from '../components/loading-overlay';
import { SelectWithAll } from '../components/select-with-all';
import { TrimmedInput } from '../components/trimmed-input';
import type { Route } from './+types/dev-components';
import { AntdScope } from '../components/antd-scope';

const { Title, Paragraph, Text } = Typography;

export function loader({ context }: Route.LoaderArgs) {
  if (context.publicConfig.appEnv === 'prod') throw data(null, { status: 404 });
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: '组件示例 - 易签通' }];

const GALLERY: ViewerImage[] = [
  { src: '/samples/sample-photo.png', title: '证件照示例' },
  { src: '/samples/sample-document.png', title: '材料示例' },
];

const VISA_TYPES = [
  { label: '旅游签证', value: 'tourism' },
  { label: '商务签证', value: 'business' },
  { label: '探亲签证', value: 'family' },
];

const CARDS = Array.from({ length: 20 }, (_, i) => i + 1);

const section = { marginBottom: 24 } as const;

function DialogDemo() {
  const [open, setOpen] = useState(false);
  return (
    <Card style={section} data-testid="demo-dialog">
      <Title level={3}>对话框 AppDialog</Title>
      <Paragraph>按 Esc 或关闭按钮可关闭；点击遮罩不会关闭；路由路径变化时自动关闭。</Paragraph>
      <Button type="primary" onClick={() => setOpen(true)} data-testid="open-dialog">
        打开对话框
      </Button>
      <AppDialog
        open={open}
        onClose={() => setOpen(false)}
        title="签证材料说明"
        subtitle="请在出行前准备以下材料"
        headerRight={<Tag color="blue">示例</Tag>}
        className="demo-app-dialog"
      >
        <Space orientation="vertical" style={{ marginBottom: 12 }}>
          <Link to="/about" data-testid="dialog-link">
            查看关于我们（离开本页）
          </Link>
          {/* Only the query changes: the dialog stays open. */}
          <Link to="/dev/components?tab=2" data-testid="dialog-link-query">
            切换查询参数（路径不变）
          </Link>
          {/* The same route under another pathname: this page stays mounted, the dialog must close itself. */}
          <Link to="/dev/components/" data-testid="dialog-link-same-route">
            同一页面换路径（/dev/components/）
          </Link>
        </Space>
        {Array.from({ length: 30 }, (_, i) => (
          <Paragraph key={i}>第 {i + 1} 项：护照原件及首页复印件，有效期需在六个月以上，并至少留有两页空白签证页。</Paragraph>
        ))}
      </AppDialog>
    </Card>
  );
}

function LoadingDemo() {
  const [custom, setCustom] = useState(false);
  const [plain, setPlain] = useState(false);
  return (
    <Card style={section} data-testid="demo-loading">
      <Title level={3}>加载遮罩 LoadingOverlay</Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Button onClick={() => setCustom((v) => !v)} data-testid="toggle-loading-custom">
          {custom ? '关闭' : '开启'}自定义文案遮罩
        </Button>
        <Button onClick={() => setPlain((v) => !v)} data-testid="toggle-loading-default">
          {plain ? '关闭' : '开启'}默认文案遮罩
        </Button>
      </Space>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <LoadingOverlay loading={custom} loadingText="正在加载材料">
          <div data-testid="loading-custom" style={{ padding: 24, background: '#fafafa' }}>
            材料清单区域：护照、照片、在职证明、银行流水。
          </div>
        </LoadingOverlay>
        <LoadingOverlay loading={plain}>
          <div data-testid="loading-default" style={{ padding: 24, background: '#fafafa' }}>
            订单信息区域：申请人、出行日期、办理进度。
          </div>
        </LoadingOverlay>
      </Space>
    </Card>
  );
}

function ImageDemo() {
  return (
    <Card style={section} data-testid="demo-images">
      <Title level={3}>图片查看器 ImageThumb</Title>
      <Space wrap>
        {GALLERY.map((image, index) => (
          <ImageThumb
            key={image.src}
            src={image.src}
            title={image.title}
            gallery={GALLERY}
            index={index}
            width={120}
            height={120}
            style={{ objectFit: 'cover', borderRadius: 4, border: '1px solid #eee' }}
            data-testid={`thumb-${index}`}
          />
        ))}
      </Space>
    </Card>
  );
}

function DragScrollDemo() {
  return (
    <Card style={section} data-testid="demo-drag-scroll">
      <Title level={3}>横向拖动列表 DragScrollList</Title>
      <DragScrollList data-testid="drag-list" style={{ gap: 12, paddingBottom: 8 }}>
        {CARDS.map((n) => (
          <div
            key={n}
            style={{
              flex: '0 0 160px',
              height: 90,
              borderRadius: 6,
              background: n % 2 ? '#e6f4ff' : '#fff1f0',
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'center',
            }}
          >
            国家卡片 {n}
          </div>
        ))}
      </DragScrollList>
    </Card>
  );
}

function SelectDemo() {
  const [visaType, setVisaType] = useState<string | null | undefined>(undefined);
  const shown = visaType === undefined ? '未选择' : visaType === null ? '全部' : visaType;
  return (
    <Card style={section} data-testid="demo-select">
      <Title level={3}>带“全部”的选择框 SelectWithAll</Title>
      <Space wrap>
        <SelectWithAll options={VISA_TYPES} value={visaType} onChange={setVisaType} placeholder="签证类型" style={{ width: 200 }} />
        <Text data-testid="select-value">当前选择：{shown}</Text>
      </Space>
    </Card>
  );
}

function TrimmedInputDemo() {
  const [form] = Form.useForm<{ name?: string }>();
  const name = Form.useWatch('name', form);
  return (
    <Card style={section} data-testid="demo-trimmed-input">
      <Title level={3}>去空格输入框 TrimmedInput</Title>
      <Form form={form} layout="vertical" style={{ maxWidth: 360 }}>
        <Form.Item label="姓名" name="name" rules={[{ required: true }]} validateTrigger={['onChange', 'onBlur']}>
          <TrimmedInput placeholder="请输入姓名" />
        </Form.Item>
      </Form>
      <Text>
        表单值：<code data-testid="form-value">{JSON.stringify(name ?? null)}</code>
      </Text>
    </Card>
  );
}

// In antd's scope: the page renders antd throughout (app/components/antd-scope.tsx).
export default function DevComponents() {
  return (
    <AntdScope>
      <div className="page">
        <Title level={2}>组件示例</Title>
        <Paragraph type="secondary">spec §2.6 共享元素的开发者示例页（生产环境不提供）。</Paragraph>
        <DialogDemo />
        <LoadingDemo />
        <ImageDemo />
        <DragScrollDemo />
        <SelectDemo />
        <TrimmedInputDemo />
      </div>
    </AntdScope>
  );
}
