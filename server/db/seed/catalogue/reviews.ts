// Customer reviews: mostly 4–5 stars, some 3. The shown name falls back from
// nickname to mobile phone to '匿名评价', so some reviews carry neither.
import type { Handling } from './product-spec.ts';
import type { Rng } from './random.ts';

export interface ReviewSeed {
  nickname: string | null;
  mobile_phone: string | null;
  score: number;
  content: string;
  platform: string;
  create_time: number;
}

export interface ReviewContext {
  country: string;
  visaType: string;
  handling: Handling;
}

const DAY = 24 * 60 * 60 * 1000;

const NICKNAMES = [
  '小鱼爱旅行',
  'Lily',
  '阿杰',
  '旅行的意义',
  '橙子',
  '大熊',
  'Cathy王',
  '木子李',
  '晴天',
  'Kevin',
  '背包客老张',
  '王女士',
  '陈先生',
  '刘阿姨',
  '小蜜蜂',
  'Summer',
  '一只猫',
  '海风',
  '安静的美男子',
  'Momo',
  '小七',
  '糖糖妈',
  'Jason',
  '行走的路人',
  '北北',
  '米粒',
  'Tony',
  '慢慢走',
  '向日葵',
  '周末去哪儿',
  '老赵',
  '兔子不吃草',
  'Grace',
  '阿宁',
  '西瓜太郎',
  '林小姐',
];

const PHONE_PREFIXES = ['138', '139', '137', '136', '135', '158', '159', '186', '187', '188', '150', '151', '177', '189', '133', '199'];

const PLATFORMS: Array<[string, number]> = [
  ['微信小程序', 0.55],
  ['App', 0.25],
  ['官网', 0.2],
];

const OPENERS_GOOD = ['', '', '非常满意！', '第二次在这里办了，依旧靠谱。', '强烈推荐！', '整体体验很好。', '朋友推荐来的，果然没让人失望。', '五星好评！'];

const BODIES_GOOD = [
  '材料清单写得很清楚，按要求准备一次就过了。',
  '客服回复很及时，晚上十点发消息也有人回。',
  '签证专员帮我检查了在职证明的格式，省了不少事。',
  '手机拍的证件照直接上传就能用，不用再跑照相馆。',
  '第一次办{country}签证，全程有人指导，心里很踏实。',
  '出签率确实高，同事推荐过来的。',
  '资料审核很仔细，指出我银行流水少了一个月，及时补上了。',
  '价格比线下旅行社便宜一些，服务一点不差。',
  '帮爸妈一起办的{country}{visaType}，退休人员要准备什么写得很详细。',
  '给孩子办的，出生证明和父母同意书都有样例可以参考。',
  '每一步进度都有短信通知，不用一直追问。',
  '比预计时间提前出签，赶上了原定的行程。',
];

const BODIES_BY_HANDLING: Record<Handling, string[]> = {
  evisa: ['电子签两天就下来了，PDF直接发到邮箱。', '全程手机操作，不用寄护照，太方便了。', '入境的时候出示打印的电子签，很顺利。'],
  mailed: [
    '顺丰来回寄护照都不用自己付运费，很方便。',
    '护照寄过去一周左右就寄回来了，签证页信息都核对过。',
    '送签后使馆打电话抽查，专员提前告诉了可能问的问题。',
  ],
  interview: [
    '面试前的辅导很有用，签证官问的问题基本都练过。',
    'DS-160表格帮忙填好检查过，面试很顺利，当场就通过了。',
    '面试预约排得很快，比自己抢号省心多了。',
  ],
  biometric: ['签证中心预约很快，录指纹十分钟就结束了。', '申请表都是专员填好的，去签证中心签个字录指纹就行。', '行程单和保险都帮忙准备了，递交时一次通过。'],
};

const CLOSERS_GOOD = ['', '', '下次还来。', '已推荐给朋友。', '好评！', '给客服点赞。', '希望以后办其他国家也这么顺利。'];

const BODIES_FAIR = [
  '出签比预计晚了两天，好在没耽误行程。',
  '客服周末回复有点慢，其他都还好。',
  '资料要求有点多，来回补了两次材料。',
  '价格稍微贵了一点，不过确实省心。',
  '快递寄回时包装有点简单，护照倒是没问题。',
  '领馆放假耽误了几天，希望页面能提前提醒假期安排。',
  '在职证明模板改了两次才符合要求，建议样例写得再详细些。',
];

function fill(template: string, ctx: ReviewContext): string {
  return template.replaceAll('{country}', ctx.country).replaceAll('{visaType}', ctx.visaType);
}

function score(rng: Rng): number {
  const roll = rng.next();
  if (roll < 0.64) return 5;
  if (roll < 0.9) return 4;
  return 3;
}

function platform(rng: Rng): string {
  let roll = rng.next();
  for (const [name, weight] of PLATFORMS) {
    if (roll < weight) return name;
    roll -= weight;
  }
  return PLATFORMS[0]![0];
}

function mobilePhone(rng: Rng): string {
  let digits = '';
  for (let i = 0; i < 8; i += 1) digits += String(rng.int(0, 9));
  return rng.pick(PHONE_PREFIXES) + digits;
}

function content(rng: Rng, ctx: ReviewContext, stars: number): string {
  if (stars <= 3) {
    const complaint = rng.pick(BODIES_FAIR);
    return rng.chance(0.5) ? `${complaint}${rng.pick(['总体还可以。', '最后还是顺利出签了。', '服务态度是好的。'])}` : complaint;
  }
  const pool = [...BODIES_GOOD, ...BODIES_BY_HANDLING[ctx.handling], ...BODIES_BY_HANDLING[ctx.handling]];
  const first = rng.pick(pool);
  let second = rng.pick(pool);
  if (second === first) second = '';
  const text = `${rng.pick(OPENERS_GOOD)}${fill(first, ctx)}${rng.chance(0.6) ? fill(second, ctx) : ''}${rng.pick(CLOSERS_GOOD)}`;
  return stars === 4 ? `${text}${rng.pick(['', '唯一不足是出签前几天有点焦虑，希望进度更新再快一点。', '扣一星是因为价格略高。'])}` : text;
}

/** `count` reviews dated within the year before `now`. */
export function buildReviews(rng: Rng, ctx: ReviewContext, count: number, now: number): ReviewSeed[] {
  const reviews: ReviewSeed[] = [];
  for (let i = 0; i < count; i += 1) {
    const stars = score(rng);
    const who = rng.next();
    // 50% nickname only, 15% nickname and phone, 25% phone only, 10% neither.
    const nickname = who < 0.65 ? rng.pick(NICKNAMES) : null;
    const phone = who >= 0.5 && who < 0.9 ? mobilePhone(rng) : null;
    reviews.push({
      nickname,
      mobile_phone: phone,
      score: stars,
      content: content(rng, ctx, stars),
      platform: platform(rng),
      create_time: now - rng.int(60 * 60 * 1000, 365 * DAY - 1),
    });
  }
  return reviews;
}

/** How many reviews a product gets: fixed for the featured ones, none for delisted ones, else 0–8. */
export function reviewCount(rng: Rng, fixed: number | undefined, delisted: boolean): number {
  if (fixed !== undefined) return fixed;
  if (delisted) return 0;
  return rng.chance(0.3) ? 0 : rng.int(1, 8);
}
