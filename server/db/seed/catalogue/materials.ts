// The materials list of a product for each applicant identity (spec §3):
// 0 在职人员, 1 自由职业者, 2 退休人员, 3 在校学生, 4 学龄前儿童.
// attr: 0 electronic (uploaded), 1 paper mailed to us, 2 brought to the
// embassy or visa centre by the applicant.
import type { Handling, Proof } from './product-spec.ts';
import type { VisaTypeName } from './reference.ts';

export const IDENTITIES = [0, 1, 2, 3, 4] as const;
export type Identity = (typeof IDENTITIES)[number];

export const SAMPLE_FILES = [
  'passport-bio-page',
  'id-card',
  'household-register',
  'employment-certificate',
  'bank-statement',
  'deposit-certificate',
  'business-licence',
  'retirement-certificate',
  'student-certificate',
  'birth-certificate',
  'invitation-letter',
  'visa-photo',
] as const;
export type SampleFile = (typeof SAMPLE_FILES)[number];

export function sampleUrl(file: SampleFile): string {
  return `/material-samples/${file}.png`;
}

export interface MaterialContext {
  iso: string;
  country: string;
  handling: Handling;
  type: VisaTypeName;
  entry: number;
  schengen: boolean;
  proof?: Proof;
  photo: { color: number; width: number; height: number } | null;
}

export interface MaterialSeed {
  identity_id: number;
  required: number;
  attr: number;
  name: string;
  attention: string;
  sample: string | null;
  sort: number;
}

interface Item {
  name: string;
  attr: 0 | 1 | 2;
  required: boolean;
  attention: string;
  sample?: SampleFile;
}

const E = 0;
const MAIL = 1;
const BRING = 2;

function passportItems(ctx: MaterialContext): Item[] {
  const items: Item[] = [];
  if (ctx.handling === 'mailed') {
    items.push({
      name: '护照原件',
      attr: MAIL,
      required: true,
      attention: '有效期自回国之日起不少于6个月，至少2页连续空白签证页，护照末页需本人签名；如有旧护照请一并寄送。',
    });
  } else if (ctx.handling !== 'evisa') {
    const where = ctx.handling === 'interview' ? '面试当天' : '录指纹递交当天';
    items.push({
      name: '护照原件',
      attr: BRING,
      required: true,
      attention: `${where}本人携带。有效期自回国之日起不少于6个月，至少2页空白签证页；护照将留存审理，出签后寄回。`,
    });
  }
  items.push({
    name: '护照首页扫描件',
    attr: E,
    required: true,
    attention: '彩色扫描或手机拍摄，四角完整、无反光、无遮挡，姓名拼音与护照号码清晰可读。',
    sample: 'passport-bio-page',
  });
  return items;
}

function identityDocuments(ctx: MaterialContext, identity: Identity): Item[] {
  const sticker = ctx.handling !== 'evisa';
  const items: Item[] = [
    {
      name: '身份证正反面',
      attr: E,
      required: sticker && identity !== 4,
      attention: identity === 4 ? '如已办理身份证请提供正反面扫描件。' : '正反面分别拍摄，证件须在有效期内；如身份证与户籍地不一致请说明。',
      sample: 'id-card',
    },
  ];
  if (sticker || identity === 4) {
    items.push({
      name: '户口本',
      attr: E,
      required: sticker,
      attention: '全本扫描，含首页、户主页及本人页；集体户口提供集体户口首页及本人页；非本领区户籍需加附当地居住证。',
      sample: 'household-register',
    });
  }
  return items;
}

function formItems(ctx: MaterialContext): Item[] {
  switch (ctx.handling) {
    case 'mailed':
      return [
        {
          name: '签证申请表（签字页）',
          attr: MAIL,
          required: true,
          attention: '我司根据您在线填写的信息生成申请表，打印后请本人在签名处亲笔签字并随护照寄回；未成年人由父母代签。',
        },
      ];
    case 'biometric':
      return [
        { name: '签证申请表（签字页）', attr: BRING, required: true, attention: '由我司在线填写后发送给您，打印并本人签字，递交当天携带。' },
        { name: '签证中心预约确认函', attr: BRING, required: true, attention: '打印预约确认函，按预约时间提前15分钟到达签证中心，录入指纹并拍照。' },
      ];
    case 'interview': {
      const form = ctx.iso === 'US' ? 'DS-160确认页' : '在线申请表确认页';
      return [
        { name: form, attr: BRING, required: true, attention: '打印带条形码的确认页，核对护照号与姓名后携带至面试现场。' },
        { name: '面试预约确认信', attr: BRING, required: true, attention: '缴费并预约成功后打印，面试当天出示；请勿携带手机、充电宝等电子设备入馆。' },
        { name: '旧护照（如有）', attr: BRING, required: false, attention: '曾获该国签证或有较多出境记录的旧护照有助于证明出行记录，请一并携带。' },
      ];
    }
    default:
      return [];
  }
}

function purposeItems(ctx: MaterialContext, identity: Identity): Item[] {
  const items: Item[] = [];
  switch (ctx.type) {
    case '旅游签证':
      if (ctx.schengen) {
        items.push(
          { name: '往返机票预订单', attr: E, required: true, attention: '显示申请人姓名、航班号及往返日期，出签前无需出票。' },
          { name: '酒店预订单', attr: E, required: true, attention: '覆盖全部行程的住宿预订，显示入住人姓名、地址及日期。' },
          { name: '申根旅行医疗保险', attr: E, required: true, attention: '保额不低于3万欧元，覆盖所有申根国家及全部停留期间，保单需注明紧急医疗转运责任。' },
          { name: '行程单', attr: E, required: true, attention: '按日列明城市、景点及住宿，行程日期须与机票、酒店一致。' },
        );
      } else if (ctx.handling === 'evisa') {
        items.push({ name: '往返机票或酒店预订单', attr: E, required: false, attention: '部分申请需提供，建议准备预订单以备入境抽查。' });
      } else {
        items.push({
          name: '行程单',
          attr: E,
          required: ctx.iso === 'JP' || ctx.iso === 'KR',
          attention: '按日列明城市、住宿及联系方式；我司可根据您的计划代为制作。',
        });
        items.push({ name: '往返机票及酒店预订单', attr: E, required: false, attention: '出签前无需出票，预订单显示申请人姓名即可。' });
      }
      break;
    case '商务签证':
      items.push({
        name: '邀请函',
        attr: E,
        required: true,
        attention: '由目的地邀请单位使用抬头纸出具，注明被邀请人姓名、护照号、访问目的、日期及费用承担方，并由负责人签字。',
        sample: 'invitation-letter',
      });
      if (identity === 0)
        items.push({ name: '公司派遣函', attr: MAIL, required: true, attention: '公司抬头纸打印，说明出访目的、行程日期及费用承担，加盖公章并由负责人签字。' });
      else items.push({ name: '业务往来证明', attr: E, required: false, attention: '合同、发票或往来邮件等，证明与邀请方存在真实业务往来。' });
      break;
    case '探亲访友签证':
      items.push(
        {
          name: '邀请函',
          attr: E,
          required: true,
          attention: '由当地亲友出具，写明双方关系、访问日期、住宿安排及费用承担并亲笔签名。',
          sample: 'invitation-letter',
        },
        { name: '邀请人身份证明', attr: E, required: true, attention: '邀请人护照首页及当地签证、居留卡或国籍证明复印件。' },
        { name: '亲属关系证明', attr: E, required: false, attention: '如为亲属关系，提供出生证明、结婚证或亲属关系公证书；朋友关系可提供合影或往来记录。' },
      );
      break;
    case '留学签证': {
      const admission: Record<string, string> = { US: 'I-20表格原件', GB: 'CAS确认函', AU: 'CoE入学确认书', JP: '在留资格认定证明书（COE）' };
      const name = admission[ctx.iso] ?? '录取通知书';
      items.push(
        { name, attr: ctx.iso === 'US' || ctx.iso === 'JP' ? MAIL : E, required: true, attention: '须由录取学校签发且在有效期内，姓名、出生日期与护照一致。' },
        { name: '学历学位证书', attr: E, required: true, attention: '最高学历毕业证、学位证扫描件；在读学生提供在读证明及成绩单。' },
        {
          name: '留学资金证明',
          attr: MAIL,
          required: true,
          attention: '存款金额需覆盖第一年学费及生活费，存期建议不少于28天，银行出具英文证明。',
          sample: 'deposit-certificate',
        },
        { name: '语言成绩单', attr: E, required: false, attention: '雅思、托福或日语能力考试成绩单（如学校录取时要求）。' },
      );
      break;
    }
    case '工作签证':
      items.push(
        { name: '在留资格认定证明书（COE）', attr: MAIL, required: true, attention: '由日本雇主在当地入管局申请取得，签发后3个月内有效，请寄送原件。' },
        { name: '雇佣合同', attr: E, required: true, attention: '日本雇主出具的雇佣合同或录用通知书，含职位、薪资与期限。' },
        { name: '最高学历证书', attr: E, required: true, attention: '毕业证及学位证扫描件，与COE申请时提交的一致。' },
      );
      break;
  }
  return items;
}

function proofItems(ctx: MaterialContext, identity: Identity): Item[] {
  if (!ctx.proof || identity >= 3) return [];
  if (ctx.proof === 'jpMulti3') {
    return [
      {
        name: identity === 2 ? '养老金年收入证明或资产证明' : '个人所得税纳税证明',
        attr: E,
        required: true,
        attention: '近一年完税证明（可从个人所得税APP导出），年收入需达到约10万元以上；或提供房产、大额存款等资产证明。',
      },
    ];
  }
  if (ctx.proof === 'jpMulti5') {
    return [{ name: '年收入证明（50万元以上）', attr: E, required: true, attention: '近一年个人所得税完税证明或单位出具的年收入证明，年收入须在50万元以上。' }];
  }
  return [
    {
      name: '多次签证条件证明',
      attr: E,
      required: true,
      attention: '满足以下任一即可：近5年内访韩2次以上、持有效OECD国家签证、年收入达到要求或名校毕业等，请提供对应证明。',
    },
  ];
}

function employedItems(ctx: MaterialContext): Item[] {
  if (ctx.handling === 'evisa') {
    return [
      {
        name: '在职证明扫描件',
        attr: E,
        required: false,
        attention: '部分国家移民局会抽查，建议提前准备公司抬头纸在职证明。',
        sample: 'employment-certificate',
      },
    ];
  }
  const where = ctx.handling === 'interview' ? BRING : MAIL;
  return [
    {
      name: '在职证明',
      attr: where,
      required: ctx.handling !== 'interview',
      attention: '公司抬头纸打印，注明姓名、职位、入职时间、月收入及准假日期，并保证按期回国；加盖公章，负责人签字并留座机电话。',
      sample: 'employment-certificate',
    },
    {
      name: '营业执照副本复印件',
      attr: where,
      required: ctx.handling !== 'interview',
      attention: '加盖公司鲜章；事业单位提供事业单位法人证书复印件，国家机关可免。',
      sample: 'business-licence',
    },
    {
      name: '银行流水（近6个月）',
      attr: where,
      required: ctx.handling !== 'interview',
      attention: '银行柜台打印并加盖业务章，需体现工资收入，余额建议不低于3万元；网银截图无效。',
      sample: 'bank-statement',
    },
    { name: '存款证明', attr: where, required: false, attention: '5万元以上，冻结期需至回国后1个月，可增强资金证明。', sample: 'deposit-certificate' },
    { name: '房产证或车辆行驶证', attr: E, required: false, attention: '本人或配偶名下资产证明，可作为辅助材料提升出签率。' },
  ];
}

function freelancerItems(ctx: MaterialContext): Item[] {
  if (ctx.handling === 'evisa') {
    return [{ name: '个人情况说明', attr: E, required: false, attention: '简要说明职业、收入来源及出行目的，本人签字后拍照上传。' }];
  }
  const where = ctx.handling === 'interview' ? BRING : MAIL;
  return [
    { name: '个人情况说明', attr: E, required: true, attention: '说明从事的工作、收入来源及本次行程安排，本人签字后扫描上传。' },
    {
      name: '个体工商户营业执照复印件（如有）',
      attr: where,
      required: false,
      attention: '如为个体经营者，提供营业执照副本复印件并本人签字，无需加盖公章。',
      sample: 'business-licence',
    },
    {
      name: '银行流水（近6个月）',
      attr: where,
      required: ctx.handling !== 'interview',
      attention: '银行柜台打印并加盖业务章，需有稳定的资金往来。',
      sample: 'bank-statement',
    },
    {
      name: '存款证明',
      attr: where,
      required: ctx.handling !== 'interview',
      attention: '10万元以上，冻结期需至回国后1个月，用于证明具备出行的经济能力。',
      sample: 'deposit-certificate',
    },
    { name: '资产证明', attr: E, required: false, attention: '房产证、车辆行驶证或理财产品证明等。' },
  ];
}

function retiredItems(ctx: MaterialContext): Item[] {
  const retirement: Item = {
    name: '退休证',
    attr: E,
    required: ctx.handling !== 'evisa',
    attention: '退休证首页及信息页扫描件；如无退休证，可提供社保局出具的养老金领取证明。',
    sample: 'retirement-certificate',
  };
  if (ctx.handling === 'evisa') return [retirement];
  const where = ctx.handling === 'interview' ? BRING : MAIL;
  return [
    retirement,
    {
      name: '养老金流水（近6个月）',
      attr: where,
      required: ctx.handling !== 'interview',
      attention: '银行柜台打印并加盖业务章，体现每月养老金入账。',
      sample: 'bank-statement',
    },
    { name: '存款证明', attr: where, required: ctx.schengen, attention: '5万元以上，冻结期需至回国后1个月。', sample: 'deposit-certificate' },
    { name: '子女资助说明及子女在职证明', attr: MAIL, required: false, attention: '如由子女承担费用，提供子女在职证明、资助说明及亲属关系证明。' },
  ];
}

function studentItems(ctx: MaterialContext): Item[] {
  const card: Item = {
    name: '学生证',
    attr: E,
    required: ctx.handling !== 'evisa',
    attention: '学生证信息页及注册页扫描件，注册章须为当前学年。',
    sample: 'student-certificate',
  };
  if (ctx.handling === 'evisa') return [card];
  const where = ctx.handling === 'interview' ? BRING : MAIL;
  return [
    {
      name: '在读证明',
      attr: where,
      required: true,
      attention: '学校出具，注明年级、专业、学制及准假时间，加盖学校公章；寒暑假期间出行同样需要。',
      sample: 'student-certificate',
    },
    card,
    {
      name: '父母在职证明',
      attr: where,
      required: true,
      attention: '由父母一方单位出具，注明承担子女本次出行费用，加盖公章。',
      sample: 'employment-certificate',
    },
    { name: '父母银行流水（近6个月）', attr: where, required: ctx.handling !== 'interview', attention: '银行柜台打印并加盖业务章。', sample: 'bank-statement' },
    { name: '父母同意书', attr: MAIL, required: false, attention: '未满18周岁且非父母双方陪同出行时，需提供父母签字的同意书（部分国家需公证）。' },
  ];
}

function childItems(ctx: MaterialContext): Item[] {
  const birth: Item = { name: '出生证明', attr: E, required: true, attention: '出生医学证明扫描件，用于证明与父母的亲属关系。', sample: 'birth-certificate' };
  const parents: Item = { name: '父母护照首页及签证页', attr: E, required: true, attention: '如父母同行，提供父母护照首页及本次签证页（或签证申请进度）。' };
  if (ctx.handling === 'evisa') return [birth, parents];
  return [
    birth,
    { name: '父母同意书', attr: MAIL, required: true, attention: '父母双方签字；若仅一方陪同或无父母陪同，需办理出行同意书公证并附父母身份证复印件。' },
    parents,
    {
      name: '父母在职证明',
      attr: ctx.handling === 'interview' ? BRING : MAIL,
      required: true,
      attention: '由父母一方单位出具，注明承担子女本次出行费用，加盖公章。',
      sample: 'employment-certificate',
    },
    { name: '父母银行流水（近6个月）', attr: MAIL, required: false, attention: '银行柜台打印并加盖业务章。', sample: 'bank-statement' },
    { name: '幼儿园在读证明（如有）', attr: MAIL, required: false, attention: '已入园的儿童可提供，注明准假时间并加盖公章。' },
  ];
}

const BY_IDENTITY: Record<Identity, (ctx: MaterialContext) => Item[]> = {
  0: employedItems,
  1: freelancerItems,
  2: retiredItems,
  3: studentItems,
  4: childItems,
};

export function buildMaterials(ctx: MaterialContext): MaterialSeed[] {
  return IDENTITIES.flatMap((identity) => {
    const items = [
      ...passportItems(ctx),
      ...identityDocuments(ctx, identity),
      ...formItems(ctx),
      ...BY_IDENTITY[identity](ctx),
      ...proofItems(ctx, identity),
      ...purposeItems(ctx, identity),
    ];
    return items.map((item, index) => ({
      identity_id: identity,
      required: item.required ? 1 : 0,
      attr: item.attr,
      name: item.name,
      attention: item.attention,
      sample: item.sample ? sampleUrl(item.sample) : null,
      sort: index + 1,
    }));
  });
}
