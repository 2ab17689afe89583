// The rules across rows and sheets of a catalogue book: duplicates of a
// natural key, references to rows the book does not have, a district that
// covers no province, a product without a checklist for one of the five
// identities, an enterprise price above the price. The book is complete on its
// own (an export always is): every reference is looked up in the book.
import { areaList } from '@vant/area-data';
import { IDENTITIES } from '../../../common/constants.ts';
import type { BookProblem } from './workbook.ts';
import { type BookRow, type CatalogueBook, naturalKey, SHEETS, type SheetKey, sheetDef, splitList } from './sheets.ts';

const PROVINCES = new Set(Object.keys(areaList.province_list));

export function validateBook(book: CatalogueBook, rowNumbers: Record<string, number[]>): BookProblem[] {
  const problems: BookProblem[] = [];
  const at = (key: SheetKey, index: number) => rowNumbers[key]?.[index] ?? index + 2;
  const report = (key: SheetKey, index: number, field: string, reason: string) => {
    const def = sheetDef(key);
    problems.push({ sheet: def.name, row: at(key, index), column: def.columns.find((c) => c.field === field)?.header ?? field, reason });
  };
  const has = (row: BookRow, ...fields: string[]) => fields.every((field) => row[field] !== undefined && row[field] !== null);

  // Natural keys appear once per sheet (materials without a 材料编号 are new rows).
  for (const def of SHEETS) {
    const seen = new Map<string, number>();
    book[def.key].forEach((row, index) => {
      if (!has(row, ...def.naturalKey)) return;
      const key = naturalKey(def.key, row);
      const first = seen.get(key);
      if (first !== undefined) report(def.key, index, def.naturalKey[def.naturalKey.length - 1]!, `与第 ${at(def.key, first)} 行重复`);
      else seen.set(key, index);
    });
  }

  const continents = new Set(book.continents.map((row) => row.name));
  const countries = new Set(book.countries.map((row) => row.iso));
  const districts = new Set(book.districts.map((row) => `${row.country}|${row.name}`));
  const types = new Set(book.visaTypes.map((row) => row.name));
  const photos = new Set(book.photos.map((row) => row.name));
  const tags = new Set(book.tags.map((row) => row.name));
  const products = new Map(book.products.map((row) => [row.id, row]));

  book.countries.forEach((row, i) => {
    if (has(row, 'continent') && !continents.has(row.continent)) report('countries', i, 'continent', `大洲“${row.continent}”不在“大洲”表中`);
  });
  book.districts.forEach((row, i) => {
    if (has(row, 'country') && !countries.has(row.country)) report('districts', i, 'country', `国家代码 ${row.country} 不在“国家”表中`);
    if (row.provinces === null || row.provinces === undefined) report('districts', i, 'provinces', '领区至少要受理一个省份');
    for (const code of splitList(row.provinces ?? null)) {
      if (!PROVINCES.has(code)) report('districts', i, 'provinces', `省份编码 ${code} 不在地址库中`);
    }
  });
  // A province is served by one district of a country.
  const provinceDistrict = new Map<string, string>();
  book.districts.forEach((row, i) => {
    for (const code of splitList(row.provinces ?? null)) {
      const key = `${row.country}|${code}`;
      const other = provinceDistrict.get(key);
      if (other !== undefined && other !== row.name) report('districts', i, 'provinces', `省份 ${code} 已由领区“${other}”受理`);
      else provinceDistrict.set(key, String(row.name));
    }
  });
  book.nationalDays.forEach((row, i) => {
    if (has(row, 'country') && !countries.has(row.country)) report('nationalDays', i, 'country', `国家代码 ${row.country} 不在“国家”表中`);
  });
  book.products.forEach((row, i) => {
    if (has(row, 'country') && !countries.has(row.country)) report('products', i, 'country', `国家代码 ${row.country} 不在“国家”表中`);
    if (has(row, 'visa_type') && !types.has(row.visa_type)) report('products', i, 'visa_type', `签证类型“${row.visa_type}”不在“签证类型”表中`);
    if (has(row, 'district') && !districts.has(`${row.country}|${row.district}`))
      report('products', i, 'district', `领区“${row.district}”不在该国家的“领区”表中`);
    if (has(row, 'photo') && !photos.has(row.photo)) report('products', i, 'photo', `照片规格“${row.photo}”不在“照片规格”表中`);
    for (const tag of splitList(row.tags ?? null)) if (!tags.has(tag)) report('products', i, 'tags', `标签“${tag}”不在“产品标签”表中`);
    if ((row.discount_desc === null) !== (row.discount_price === null)) report('products', i, 'discount_price', '企业价和企业价说明要么都填，要么都不填');
    if (has(row, 'discount_price', 'sell_price') && Number(row.discount_price) > Number(row.sell_price))
      report('products', i, 'discount_price', '企业价不能高于售价');
  });
  for (const key of ['basicInfo', 'features', 'procedures', 'steps', 'materials'] as const) {
    book[key].forEach((row, i) => {
      if (has(row, 'product') && !products.has(row.product)) report(key, i, 'product', `产品编号 ${row.product} 不在“产品”表中`);
    });
  }
  // Each product offers all five identities (the guest page's tabs): each needs a checklist with a required item.
  const required = new Set(book.materials.filter((row) => row.required === 1).map((row) => `${row.product}|${row.identity}`));
  book.products.forEach((row, i) => {
    if (!has(row, 'id')) return;
    const missing = Object.entries(IDENTITIES).filter(([id]) => !required.has(`${row.id}|${id}`));
    if (missing.length > 0) report('products', i, 'id', `材料清单为空：${missing.map(([, name]) => name).join('、')}没有必需材料`);
  });
  book.slots.forEach((row, i) => {
    if (has(row, 'country', 'district') && !districts.has(`${row.country}|${row.district}`))
      report('slots', i, 'district', `领区“${row.district}”不在该国家的“领区”表中`);
    if (has(row, 'start', 'end') && String(row.end) <= String(row.start)) report('slots', i, 'end', '结束时间应晚于开始时间');
  });
  return problems;
}
