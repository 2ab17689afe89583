// The e-mail of the order detail's visa infos (发送到邮箱, issue 11): each
// issued applicant's visa number, validity, entries and stay, with the
// e-visas attached. Plain text and HTML carry the same content; every stored
// string is escaped in the HTML and no header ever holds a line break.
import type { VisaResultView } from '../../../common/contracts/visa-result.ts';
import { escapeHtml } from '../notification/material-list-email.ts';

const BRAND = '易签通';

export interface VisaInfoEmail {
  subject: string;
  text: string;
  html: string;
}

export function renderVisaInfoEmail(
  order: { user_order_id: number; order_no: string; product_title: string },
  visas: VisaResultView[],
  siteUrl: string,
): VisaInfoEmail {
  const title = order.product_title.replace(/[\r\n]+/g, ' ').trim();
  const subject = `【${BRAND}】签证信息：${title}（订单 ${order.order_no}）`;
  const link = `${siteUrl.replace(/\/+$/, '')}/order/order-detail/${order.user_order_id}`;
  const lines = (v: VisaResultView) => [
    ['签证号码', v.visa_no ?? ''],
    ['有效期', `${v.valid_from ?? ''} 至 ${v.valid_to ?? ''}`],
    ['入境次数', v.entries ?? ''],
    ['停留天数', v.stay_days === null ? '' : `${v.stay_days} 天`],
    ...(v.evisa ? [['电子签证', `见附件 ${v.evisa.file_name}`]] : []),
  ];

  const text: string[] = ['您好：', '', `以下是订单 ${order.order_no}（${title}）的签证信息：`, ''];
  for (const v of visas) {
    text.push(`【${v.applicant_name}】`);
    for (const [label, value] of lines(v)) text.push(`${label}：${value}`);
    text.push('');
  }
  text.push('入境时请携带护照原件；电子签证请打印后随身携带。', `查看订单：${link}`, '', `—— ${BRAND}`, '此邮件由系统自动发送，请勿直接回复。', '');

  const html: string[] = [
    '<!DOCTYPE html>',
    `<html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    "<body style=\"font-family:-apple-system,'PingFang SC','Microsoft YaHei',sans-serif;color:#333;line-height:1.6\">",
    '<p>您好：</p>',
    `<p>以下是订单 ${order.order_no}（${escapeHtml(title)}）的签证信息：</p>`,
  ];
  for (const v of visas) {
    html.push(
      `<h3 style="margin:16px 0 4px">${escapeHtml(v.applicant_name)}</h3>`,
      '<table style="border-collapse:collapse">' +
        lines(v)
          .map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:#666">${escapeHtml(label!)}</td><td>${escapeHtml(value!)}</td></tr>`)
          .join('') +
        '</table>',
    );
  }
  html.push(
    '<p>入境时请携带护照原件；电子签证请打印后随身携带。</p>',
    `<p><a href="${escapeHtml(link)}" style="color:#3fa2f5">查看订单</a></p>`,
    `<p style="color:#999;font-size:12px">—— ${BRAND}<br>此邮件由系统自动发送，请勿直接回复。</p>`,
    '</body></html>',
  );
  return { subject, text: text.join('\n'), html: html.join('\n') };
}
