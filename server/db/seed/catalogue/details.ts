// The texts around a product: need_days_detail, basic info (the first item is
// the 费用说明 that the page's '明细' popup shows), feature strip, procedure
// icons, numbered process steps and the reminder.
import { ENTRY_LABELS } from '../../../../common/catalogue.ts';
import type { Handling, ProductSpec } from './product-spec.ts';

export interface ProductContext {
  iso: string;
  country: string;
  spec: ProductSpec;
  /** District, its consulate and the names of its provinces; null when handled nationwide. */
  district: { name: string; consulate: string; provinces: string[] } | null;
  countryNote?: string;
}

export interface TitleContent {
  title: string;
  content: string;
}

export interface Feature {
  type: number;
  num: number;
  unit: string;
  title: string;
}

export interface Procedure {
  icon: 'form' | 'upload' | 'review' | 'submit' | 'interview' | 'visa' | 'express';
  title: string;
}

export function needDaysDetail(spec: ProductSpec): string {
  switch (spec.handling) {
    case 'evisa':
      return `约${spec.days}个工作日（资料审核通过后提交）`;
    case 'mailed':
      return `约${spec.days}个工作日（不含送签当天）`;
    case 'interview':
      return `面试后约${spec.days}个工作日（面试排期以使馆系统为准）`;
    case 'biometric':
      return `录指纹后约${spec.days}个工作日（不含递交当天）`;
  }
}

function validity(days: number): { num: number; unit: string; text: string } {
  if (days >= 365 && days % 365 === 0) return { num: days / 365, unit: '年', text: `${days / 365}年` };
  return { num: days, unit: '天', text: `${days}天` };
}

function interviewText(handling: Handling): string {
  if (handling === 'interview') return '需本人前往使馆面试';
  if (handling === 'biometric') return '需本人前往签证中心录入指纹';
  return '免面试，无需本人到场';
}

function feeNote(ctx: ProductContext): string {
  const { spec } = ctx;
  const official = spec.fee > 0 ? `${ctx.country}签证费约¥${spec.fee}` : '签证费（该国对中国公民免收）';
  switch (spec.handling) {
    case 'evisa':
      return `费用包含：${official}、电子签证代办服务费、资料审核费。不含：境外旅行保险、机票酒店预订费用。`;
    case 'mailed':
      return `费用包含：${official}、服务费、资料审核费、护照往返顺丰快递费。不含：翻译公证费、境外旅行保险。`;
    case 'interview':
      return `费用包含：${official}、DS-160/申请表填写、面试预约、一对一面试辅导、护照回寄快递费。不含：面试往返交通及住宿费用。`;
    case 'biometric':
      return `费用包含：${official}、签证中心服务费、服务费、资料审核费、护照回寄快递费。不含：录指纹往返交通费、可选增值服务（VIP室、短信通知等）。`;
  }
}

function visaForm(spec: ProductSpec): string {
  if (spec.handling === 'evisa') return '电子签证（PDF发送至邮箱，打印携带）';
  if (spec.desc.includes('电子签证')) return '电子签证（不贴签，入境时凭护照核验）';
  return '贴纸签证（签证页贴于护照内，护照寄回）';
}

export function basicInfo(ctx: ProductContext): TitleContent[] {
  const { spec } = ctx;
  const valid = validity(spec.valid);
  return [
    { title: '费用说明', content: feeNote(ctx) },
    { title: '签证类型', content: `${spec.type}（${spec.desc}）` },
    { title: '入境次数', content: ENTRY_LABELS[spec.entry] ?? '' },
    { title: '停留天数', content: spec.stay > 0 ? `每次最长停留${spec.stay}天` : '按学业期限停留' },
    { title: '有效期', content: `${valid.text}（以签证页标注为准）` },
    { title: '办理时长', content: needDaysDetail(spec) },
    {
      title: '受理范围',
      content: ctx.district ? `${ctx.district.name}：${ctx.district.provinces.join('、')}户籍或持当地居住证的申请人` : '全国受理（户籍不限）',
    },
    { title: '是否面试', content: interviewText(spec.handling) },
    { title: '签证形式', content: visaForm(spec) },
  ];
}

export function features(spec: ProductSpec): Feature[] {
  const valid = validity(spec.valid);
  const inPerson = spec.handling === 'interview' || spec.handling === 'biometric' ? 1 : 0;
  const meeting = spec.handling === 'interview' ? '需面试' : spec.handling === 'biometric' ? '录指纹' : '免面试';
  return [
    { type: 0, num: spec.days, unit: '个工作日', title: '办理时长' },
    spec.stay > 0 ? { type: 0, num: spec.stay, unit: '天', title: '停留时间' } : { type: 1, num: 0, unit: '按学业期限', title: '停留时间' },
    { type: 0, num: valid.num, unit: valid.unit, title: '有效期' },
    { type: 1, num: 0, unit: meeting, title: '面试' },
    // num 0 shows "0" without its unit: nobody has to turn up in person.
    { type: 0, num: inPerson, unit: '次', title: '本人到场' },
    { type: 1, num: 0, unit: spec.handling === 'evisa' ? '电子签' : '贴纸签', title: '签证形式' },
  ];
}

export function procedure(spec: ProductSpec): Procedure[] {
  const head: Procedure[] = [
    { icon: 'form', title: '在线填表' },
    { icon: 'upload', title: '上传资料' },
    { icon: 'review', title: '资料审核' },
  ];
  switch (spec.handling) {
    case 'evisa':
      return [...head, { icon: 'submit', title: '在线递交' }, { icon: 'visa', title: '出签' }];
    case 'mailed':
      return [...head, { icon: 'submit', title: '递交使馆' }, { icon: 'visa', title: '出签' }, { icon: 'express', title: '寄回护照' }];
    case 'interview':
      return [...head, { icon: 'interview', title: '面试' }, { icon: 'visa', title: '出签' }, { icon: 'express', title: '寄回护照' }];
    case 'biometric':
      return [
        ...head,
        { icon: 'submit', title: '递交签证中心' },
        { icon: 'interview', title: '录指纹' },
        { icon: 'visa', title: '出签' },
        { icon: 'express', title: '寄回护照' },
      ];
  }
}

export function processSteps(ctx: ProductContext): TitleContent[] {
  const { spec } = ctx;
  const fill = { title: '在线下单并填写申请信息', content: '选择出行日期和申请人身份，按提示填写个人信息、工作及出行信息，系统自动校验格式，可随时保存草稿。' };
  const upload = { title: '上传电子资料', content: '按资料清单拍照或扫描上传，证件照可直接用手机拍摄，系统自动裁剪换底；资料一次上传，下次办理可重复使用。' };
  const review = { title: '签证专员审核', content: '专员在1个工作日内逐项审核，不符合要求的资料会通过短信和电话通知您修改或补充。' };
  switch (spec.handling) {
    case 'evisa':
      return [
        fill,
        upload,
        review,
        { title: '提交官方系统', content: `审核通过后由我司在${ctx.country}官方电子签证系统代为提交申请并支付签证费。` },
        { title: '获取电子签证', content: '获批后电子签证PDF发送至您预留的邮箱并同步到订单中，请打印后与护照一同携带。' },
      ];
    case 'mailed':
      return [
        fill,
        { title: '上传资料并寄送护照', content: '电子资料在线上传；护照原件及纸质资料请使用顺丰寄至我司（下单后提供免费寄件码）。' },
        review,
        {
          title: '递交使馆',
          content: `资料齐全后在工作日递交${ctx.district ? ctx.district.consulate : `${ctx.country}使馆`}，递交后开始审理，期间使馆可能电话抽查。`,
        },
        { title: '出签', content: '审理完成后第一时间短信通知结果，如需补充材料专员会协助处理。' },
        { title: '寄回护照', content: '护照及签证通过顺丰寄回您的收件地址，收到后请核对签证页上的姓名、日期与入境次数。' },
      ];
    case 'interview':
      return [
        {
          title: ctx.iso === 'US' ? '填写DS-160表格' : '填写在线申请表',
          content: '签证专员根据您提供的信息代填申请表，提交前由您本人确认，避免信息错误影响面试。',
        },
        { title: '缴费并预约面试', content: '缴纳签证费后在订单中选择可预约的面试日期与时间，预约成功后发送确认信。' },
        { title: '一对一面试辅导', content: '顾问根据您的背景讲解常见问题与回答要点，并帮您准备面试时备用的辅助材料。' },
        { title: '前往使馆面试', content: '按预约时间携带护照原件、确认页与预约信前往使馆，面试通过后护照由使馆留存。' },
        { title: '出签并寄回护照', content: `使馆打印签证后通过快递寄回护照，通常为面试后${spec.days}个工作日左右。` },
      ];
    case 'biometric':
      return [
        fill,
        upload,
        review,
        { title: '预约签证中心', content: '审核通过后为您预约签证中心递交与录指纹的日期，并发送预约确认函。' },
        { title: '本人录指纹递交', content: '携带护照原件及打印的申请表、确认函前往签证中心，录入指纹并拍照，约需30分钟。' },
        { title: '等待审理', content: `${ctx.country}签证审理期间护照留存于签证中心，进度可在订单中查看。` },
        { title: '出签并寄回护照', content: '出签后护照通过快递寄回，也可选择到签证中心自取。' },
      ];
  }
}

export function reminder(ctx: ProductContext): string {
  const { spec } = ctx;
  const lines: string[] = [];
  if (spec.handling === 'evisa') {
    lines.push('请确保护照有效期自入境之日起不少于6个月，电子签证信息须与护照完全一致，更换护照后需重新申请。');
    lines.push('电子签证获批后将以PDF形式发送至您的邮箱，请打印后随身携带，入境时与护照一同出示。');
  } else {
    lines.push('请确保护照有效期自回国之日起不少于6个月，且至少有2页空白签证页。');
    if (spec.handling === 'mailed') lines.push('递交后使馆可能电话抽查或要求补充材料，请保持手机畅通并如实回答。');
    if (spec.handling === 'interview')
      lines.push(
        '面试当天请提前30分钟到达，携带护照原件、确认页及预约信；使馆不允许携带手机、充电宝等电子设备及大件行李。部分申请人面试后需行政审查，时间通常为数周。',
      );
    if (spec.handling === 'biometric') lines.push('请按预约时间本人前往签证中心录入指纹，迟到可能需要重新预约；审理期间护照留存，无法用于其他出行。');
    lines.push('出签时间受使领馆假期及国内节假日影响，出签前请勿购买不可退改的机票和酒店。');
  }
  if (ctx.district) lines.push(`本产品仅受理${ctx.district.name}（${ctx.district.provinces.join('、')}）户籍或持当地有效居住证的申请人。`);
  if (spec.entry === 2) lines.push('多次签证每次入境停留不得超过规定天数，请勿逾期停留，以免影响今后的签证申请。');
  if (spec.express) lines.push('加急服务仅缩短处理时间，不影响审批结果；如因使馆原因无法加急，加急费用全额退还。');
  if (spec.refund) lines.push('本产品支持拒签退款：如遇拒签，凭拒签通知全额退还本产品费用。');
  if (ctx.countryNote) lines.push(ctx.countryNote);
  if (spec.note) lines.push(spec.note);
  lines.push(`签证审批结果由${ctx.country}${spec.handling === 'evisa' ? '移民局' : '使馆'}决定，我司将全程协助但无法干预审批进度和结果。`);
  return lines.join('');
}
