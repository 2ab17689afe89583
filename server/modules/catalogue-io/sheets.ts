// The catalogue workbook's shape (issue 26): one sheet per table, Chinese
// headers, rows keyed by natural keys (a country's ISO code, a district's
// country and name, a product's 产品编号) so that the same file imported twice
// changes nothing. Cell values are what a person types: yuan for prices, a
// percentage for the approval rate, Chinese labels for the small enums.
import { IDENTITIES } from '../../../common/constants.ts';
import { ENTRY_LABELS } from '../../../common/catalogue.ts';

/** A cell's value once read: text, a whole number (cents for money, ×100 for percentages), or empty. */
export type Cell = string | number | null;
export type BookRow = Record<string, Cell>;

type ColumnKind =
  | { kind: 'text'; max: number; pattern?: RegExp; patternHint?: string }
  | { kind: 'int'; min: number; max: number }
  /** Yuan in the sheet, cents in the database: at most two decimals, never negative. */
  | { kind: 'money' }
  /** A percentage in the sheet (98.5), ×100 in the database (9850). */
  | { kind: 'percent' }
  /** A label in the sheet, a number in the database. */
  | { kind: 'enum'; labels: Record<number, string> }
  /** Several values in one cell, separated by 、 (or a comma). */
  | { kind: 'list'; max: number; pattern?: RegExp; patternHint?: string };

export type Column = ColumnKind & { field: string; header: string; required: boolean; width?: number; exportOnly?: boolean };

export interface SheetDef {
  key: SheetKey;
  name: string;
  columns: Column[];
  /** The natural key's fields (the row's identity for upserts); null: the sheet's own rule (materials). */
  naturalKey: string[];
}

const text = (field: string, header: string, max: number, required = true, extra: Partial<Column> = {}): Column =>
  ({ kind: 'text', field, header, max, required, ...extra }) as Column;
const int = (field: string, header: string, min: number, max: number, required = true): Column => ({ kind: 'int', field, header, min, max, required });
const labels = (field: string, header: string, values: Record<number, string>, required = true): Column => ({
  kind: 'enum',
  field,
  header,
  labels: values,
  required,
});

const ISO = { pattern: /^[A-Z]{2}$/, patternHint: '两位大写字母（ISO 3166-1）' };
export const YES_NO = { 1: '是', 0: '否' };
export const PHOTO_COLORS = { 0: '蓝', 1: '白', 2: '红', 3: '浅灰' };
export const MATERIAL_ATTRS = { 0: '电子版', 1: '邮寄纸质', 2: '带到使馆' };
export const REQUIRED_LABELS = { 1: '必需', 0: '可选' };
export const LISTING = { 0: '上架', 1: '下架' };
export const COUNTRY_STATUS = { 0: '启用', 1: '停用' };
export const OFFLINE = { 1: '网页和小程序', 0: '仅小程序' };
export const FEATURE_TYPES = { 0: '数值', 1: '文字' };
/** The photo size a consulate may ask for, in millimetres. */
export const PHOTO_MM = { min: 20, max: 100 };

export const SHEETS = [
  {
    key: 'continents',
    name: '大洲',
    naturalKey: ['id'],
    columns: [int('id', '大洲编号', 0, 99), text('name', '名称', 20), text('name_en', '英文名', 40), int('sort', '排序', 0, 9999)],
  },
  { key: 'visaTypes', name: '签证类型', naturalKey: ['name'], columns: [text('name', '名称', 30), int('sort', '排序', 0, 9999)] },
  { key: 'tags', name: '产品标签', naturalKey: ['name'], columns: [text('name', '名称', 30), int('sort', '排序', 0, 9999)] },
  {
    key: 'photos',
    name: '照片规格',
    naturalKey: ['name'],
    columns: [
      text('name', '名称', 50),
      labels('color', '底色', PHOTO_COLORS),
      int('width', '宽（毫米）', PHOTO_MM.min, PHOTO_MM.max),
      int('height', '高（毫米）', PHOTO_MM.min, PHOTO_MM.max),
    ],
  },
  {
    key: 'countries',
    name: '国家',
    naturalKey: ['iso'],
    columns: [
      text('iso', '国家代码', 2, true, ISO),
      text('name', '国家名称', 50),
      text('name_en', '英文名', 80),
      text('continent', '大洲', 20),
      text('description', '简介', 2000),
      int('hot', '热度（大的在前）', 0, 100000),
      labels('status', '状态', COUNTRY_STATUS),
    ],
  },
  {
    key: 'districts',
    name: '领区',
    naturalKey: ['country', 'name'],
    columns: [
      text('country', '国家代码', 2, true, ISO),
      text('name', '领区名称', 50),
      text('consulate_name', '领馆名称', 100),
      text('city', '领馆城市', 30),
      text('address', '领馆地址', 200),
      { kind: 'list', field: 'provinces', header: '受理省份编码', required: false, max: 40, pattern: /^\d{6}$/, patternHint: '地址库的六位省份编码' },
      text('interview_video_url', '面试指南视频', 200, false, { pattern: /^\/[\w./-]*$/, patternHint: '站内路径，以 / 开头' }),
    ],
  },
  {
    key: 'nationalDays',
    name: '闭馆日',
    naturalKey: ['country', 'month_day'],
    columns: [
      text('country', '国家代码', 2, true, ISO),
      text('month_day', '日期（月-日）', 5, true, { pattern: /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, patternHint: 'MM-DD，如 10-01' }),
      text('name', '名称', 50),
    ],
  },
  {
    key: 'products',
    name: '产品',
    naturalKey: ['id'],
    columns: [
      int('id', '产品编号', 1, 2_000_000_000),
      text('country', '国家代码', 2, true, ISO),
      text('visa_type', '签证类型', 30),
      text('district', '领区（空为全国）', 50, false),
      text('special_desc', '产品说明', 100),
      labels('entry_times', '入境次数', ENTRY_LABELS),
      int('stay_days', '停留天数', 0, 3650),
      int('valid_days', '有效期（天）', 0, 3650),
      int('need_days', '办理工作日', 0, 365),
      text('need_days_detail', '办理时长说明', 100),
      { kind: 'percent', field: 'pass_rate', header: '出签率（%）', required: true },
      { kind: 'money', field: 'sell_price', header: '售价（元）', required: true },
      text('discount_desc', '企业价说明', 50, false),
      { kind: 'money', field: 'discount_price', header: '企业价（元）', required: false },
      labels('status', '上架状态', LISTING),
      int('channel', '渠道值', 0, 999),
      labels('offline', '下单渠道', OFFLINE),
      labels('reject_refund', '拒签退全款', YES_NO),
      labels('need_interview', '需面试或录指纹', YES_NO),
      text('photo', '照片规格（空为不需照片）', 50, false),
      { kind: 'list', field: 'tags', header: '标签', required: false, max: 30 },
      text('reminder', '温馨提示', 5000),
    ],
  },
  {
    key: 'basicInfo',
    name: '基本信息',
    naturalKey: ['product', 'sort'],
    columns: [int('product', '产品编号', 1, 2_000_000_000), int('sort', '序号', 0, 999), text('title', '标题', 50), text('content', '内容', 5000)],
  },
  {
    key: 'features',
    name: '信息条',
    naturalKey: ['product', 'sort'],
    columns: [
      int('product', '产品编号', 1, 2_000_000_000),
      int('sort', '序号', 0, 999),
      labels('type', '类型', FEATURE_TYPES),
      int('num', '数值', 0, 1_000_000),
      text('unit', '单位或文字', 50, false),
      text('title', '标题', 50),
    ],
  },
  {
    key: 'procedures',
    name: '办理图标',
    naturalKey: ['product', 'sort'],
    columns: [int('product', '产品编号', 1, 2_000_000_000), int('sort', '序号', 0, 999), text('icon', '图标', 50), text('title', '标题', 50)],
  },
  {
    key: 'steps',
    name: '办理流程',
    naturalKey: ['product', 'sort'],
    columns: [int('product', '产品编号', 1, 2_000_000_000), int('sort', '序号', 0, 999), text('title', '标题', 100), text('content', '内容', 5000)],
  },
  {
    key: 'materials',
    name: '材料清单',
    naturalKey: ['id'],
    columns: [
      int('id', '材料编号（新材料留空）', 1, 2_000_000_000, false),
      int('product', '产品编号', 1, 2_000_000_000),
      labels('identity', '申请人身份', IDENTITIES),
      int('sort', '序号', 0, 9999),
      labels('required', '必需或可选', REQUIRED_LABELS),
      labels('attr', '材料形式', MATERIAL_ATTRS),
      text('name', '材料名称', 100),
      text('attention', '注意事项', 5000, false),
      text('sample', '样例图', 200, false),
    ],
  },
  {
    key: 'slots',
    name: '面试时段',
    naturalKey: ['country', 'district', 'date', 'start'],
    columns: [
      text('country', '国家代码', 2, true, ISO),
      text('district', '领区名称', 50),
      text('date', '日期', 10, true, { pattern: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, patternHint: 'YYYY-MM-DD' }),
      text('start', '开始', 5, true, { pattern: /^([01]\d|2[0-3]):[0-5]\d$/, patternHint: 'HH:MM' }),
      text('end', '结束', 5, true, { pattern: /^([01]\d|2[0-3]):[0-5]\d$/, patternHint: 'HH:MM' }),
      int('capacity', '名额', 0, 10000),
      { ...int('booked', '已预约（只读）', 0, 10000, false), exportOnly: true },
    ],
  },
] as const satisfies ReadonlyArray<{ key: string; name: string; naturalKey: string[]; columns: Column[] }>;

export type SheetKey = (typeof SHEETS)[number]['key'];
export type CatalogueBook = Record<SheetKey, BookRow[]>;

export const sheetDef = (key: SheetKey): SheetDef => SHEETS.find((sheet) => sheet.key === key)! as unknown as SheetDef;

export function emptyBook(): CatalogueBook {
  return Object.fromEntries(SHEETS.map((sheet) => [sheet.key, []])) as unknown as CatalogueBook;
}

/** The natural key of a row: its key fields joined. */
export function naturalKey(key: SheetKey, row: BookRow): string {
  return sheetDef(key)
    .naturalKey.map((field) => String(row[field] ?? ''))
    .join('|');
}

/** List cells hold their values joined by 、 (the reader also accepts commas). */
export const LIST_SEPARATOR = '、';
export const splitList = (value: Cell): string[] =>
  value === null || value === ''
    ? []
    : String(value)
        .split(/[、,，;；\s]+/)
        .filter(Boolean);
