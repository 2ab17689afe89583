// antd's LoginOutlined without the empty <style> its source SVG carries
// (<defs><style/></defs>, the only one of antd's icons the app uses that has
// it): an inline <style> without the page's nonce is refused by the CSP, and
// the browser reported the refusal on every page that showed the icon.
import AntdIcon, { type AntdIconProps } from '@ant-design/icons/es/components/AntdIconLight';
import LoginOutlinedSvg from '@ant-design/icons-svg/es/asn/LoginOutlined';
import type { AbstractNode } from '@ant-design/icons-svg/lib/types';

const svg = LoginOutlinedSvg.icon as AbstractNode;
const definition = { ...LoginOutlinedSvg, icon: { ...svg, children: svg.children?.filter((child) => child.tag !== 'defs') } };

export function LoginIcon(props: AntdIconProps) {
  return <AntdIcon {...props} icon={definition} />;
}
