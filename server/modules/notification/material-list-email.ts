// The e-mail of '发送此资料清单到邮箱' (spec 2.2): one identity's materials of
// a product, grouped as on the page (电子资料 / 邮寄资料 / 赴馆资料), required
// ones marked *, with their notes, the photo requirement and a link back to
// the product. Plain text and HTML carry the same content; every catalogue
// string is escaped in the HTML.
import type { Material, VisaProductDetail } from '../../../common/contracts/catalogue.ts';
import { ENTRY_LABELS } from '../../../common/catalogue.ts';
import { IDENTITIES, MATERIAL_ATTRS, PHOTO_COLORS } from '../../../common/constants.ts';
import { escapeHtml } from '../../platform/html.ts';

export interface MaterialListEmail {
  subject: string;
  text: string;
  html: string;
}

/** Spec 2.2: what the photo item tells the applicant. */
export const PHOTO_GUIDANCE = '光线均匀，不戴眼镜，露出双耳，背景为与服装颜色不同的纯色墙面';
export const PHOTO_AUTO_CHECK_NOTE = '手机拍摄的照片会自动检测和处理';

const BRAND = '易签通';

export { escapeHtml };

/** Escaped, with the note's own line breaks kept. */
function htmlLines(value: string): string {
  return escapeHtml(value.trim()).replace(/\r?\n/g, '<br>');
}

/** The name field that matches attr (spec §3), falling back to whichever is present. */
export function materialName(material: Material): string {
  const byAttr = material.attr === 0 ? material.elec_name : material.attr === 1 ? material.paper_name : material.take_along_name;
  return (byAttr ?? material.elec_name ?? material.paper_name ?? material.take_along_name ?? '').trim();
}

/** The sample as an absolute http(s) URL, or null (relative paths resolve against the site). */
function sampleUrl(sample: string | null, siteUrl: string): string | null {
  if (!sample?.trim()) return null;
  try {
    const url = new URL(sample.trim(), `${siteUrl}/`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

interface Item {
  name: string;
  required: boolean;
  attention: string;
  sample: string | null;
}

interface Group {
  attr: number;
  label: string;
  items: Item[];
}

export function productPageUrl(siteUrl: string, visaProductId: number): string {
  return `${siteUrl.replace(/\/+$/, '')}/visa/product/${visaProductId}`;
}

/**
 * The material list of one applicant identity (0–4, spec §3) as an e-mail.
 * siteUrl is the public origin of the web site, e.g. https://www.example.com.
 * Throws a RangeError for an identity index outside IDENTITIES.
 */
export function renderMaterialListEmail(detail: VisaProductDetail, identityId: number, siteUrl: string): MaterialListEmail {
  const identity = (IDENTITIES as Record<number, string>)[identityId];
  if (identity === undefined) throw new RangeError(`unknown identity ${identityId}`);
  const site = siteUrl.replace(/\/+$/, '');

  const entry = detail.entry_label || ENTRY_LABELS[detail.entry_times] || '';
  const product = [detail.country, detail.visa_type, entry, detail.product_special_desc]
    .map((part) => (part ?? '').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join(' ');
  const subject = `【${BRAND}】${product} 材料清单（${identity}）`;

  const materials = detail.identity_material.find((m) => m.identity_id === identityId);
  const items = [
    ...(materials?.material_required ?? []).map((m) => ({ m, required: true })),
    ...(materials?.material_optional ?? []).map((m) => ({ m, required: false })),
  ];
  const groups: Group[] = Object.entries(MATERIAL_ATTRS)
    .map(([attr, label]) => ({
      attr: Number(attr),
      label,
      items: items
        .filter(({ m }) => m.attr === Number(attr))
        .map(({ m, required }) => ({ name: materialName(m), required, attention: m.attention?.trim() ?? '', sample: sampleUrl(m.sample, site) })),
    }))
    .filter((group) => group.items.length > 0);

  const photo =
    detail.visa_photo_id !== 0
      ? {
          spec: detail.photo_param
            ? `背景颜色：${(PHOTO_COLORS as Record<number, string>)[detail.photo_param.color] ?? '不限'}；尺寸：${detail.photo_param.width}×${detail.photo_param.height}mm`
            : null,
        }
      : null;

  const link = productPageUrl(site, detail.visa_product_id);
  const intro = `以下是「${product}」（商品编号 ${detail.visa_product_id}）${identity}需要准备的资料，标 * 的为必备资料。`;
  const empty = '该身份暂无需要准备的资料。';

  // Plain text.
  const text: string[] = ['您好：', '', intro, ''];
  if (groups.length === 0 && !photo) text.push(empty, '');
  for (const group of groups) {
    text.push(`【${group.label}】`);
    group.items.forEach((item, index) => {
      text.push(`${index + 1}. ${item.required ? '* ' : ''}${item.name}`);
      if (item.attention) for (const line of item.attention.split(/\r?\n/)) text.push(`   ${line}`);
      if (item.sample) text.push(`   样例：${item.sample}`);
    });
    text.push('');
  }
  if (photo) {
    text.push('【签证照片】', '* 签证照片');
    if (photo.spec) text.push(`   ${photo.spec}`);
    text.push(`   拍摄要求：${PHOTO_GUIDANCE}`, `   ${PHOTO_AUTO_CHECK_NOTE}`, '');
  }
  text.push(`查看商品详情并在线办理：${link}`, '', `—— ${BRAND}`, '此邮件由系统自动发送，请勿直接回复。', '');

  // HTML: the same content, every catalogue string escaped.
  const li = (item: Item) =>
    `<li style="margin:6px 0">${item.required ? '<span style="color:#ff4b4d">*</span> ' : ''}<strong>${escapeHtml(item.name)}</strong>` +
    (item.attention ? `<div style="color:#666;font-size:13px">${htmlLines(item.attention)}</div>` : '') +
    (item.sample ? `<div style="font-size:13px"><a href="${escapeHtml(item.sample)}">查看样例</a></div>` : '') +
    '</li>';
  const html: string[] = [
    '<!DOCTYPE html>',
    `<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    "<body style=\"font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#333;line-height:1.6\">",
    '<p>您好：</p>',
    `<p>以下是「${escapeHtml(product)}」（商品编号 ${detail.visa_product_id}）${escapeHtml(identity)}需要准备的资料，标 <span style="color:#ff4b4d">*</span> 的为必备资料。</p>`,
  ];
  if (groups.length === 0 && !photo) html.push(`<p>${empty}</p>`);
  for (const group of groups) {
    html.push(`<h3 style="margin:16px 0 4px">${escapeHtml(group.label)}</h3>`, `<ol>${group.items.map(li).join('')}</ol>`);
  }
  if (photo) {
    html.push(
      '<h3 style="margin:16px 0 4px">签证照片</h3>',
      '<ul><li style="margin:6px 0"><span style="color:#ff4b4d">*</span> <strong>签证照片</strong>' +
        (photo.spec ? `<div>${escapeHtml(photo.spec)}</div>` : '') +
        `<div style="color:#666;font-size:13px">拍摄要求：${escapeHtml(PHOTO_GUIDANCE)}</div>` +
        `<div style="color:#666;font-size:13px">${escapeHtml(PHOTO_AUTO_CHECK_NOTE)}</div></li></ul>`,
    );
  }
  html.push(
    `<p><a href="${escapeHtml(link)}" style="color:#3fa2f5">查看商品详情并在线办理</a></p>`,
    `<p style="color:#999;font-size:12px">—— ${BRAND}<br>此邮件由系统自动发送，请勿直接回复。</p>`,
    '</body></html>',
  );

  return { subject, text: text.join('\n'), html: html.join('\n') };
}
