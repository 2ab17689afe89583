// 产品管理's countries and consulates (issue 26): a country (continent, ISO
// code, flag from the code, names) with its consular districts, the provinces
// each covers (the address library's codes) and the consulate's address. A
// save is checked by the catalogue importer's rules, not rules of its own: the
// country and its districts become rows of the workbook's 国家 and 领区 sheets
// (catalogue-io/sheets.ts), each cell read as the importer reads it
// (workbook.ts checkRow), and the rows across sheets checked by validateBook
// (a district that covers no province, a province two districts claim, an ISO
// code another country has). The country and all its districts are written in
// one transaction; a district a product or an interview slot uses is kept.
// The country carries a version (migration 058) that covers its districts and
// national days too (they are only edited with it): a save carries the version
// its editor read, and a second editor's stale one is refused (2620) with
// nothing written, as a product's draft is (2324).
import type { Kysely } from 'kysely';
import type { AdminCountryEditor, AdminCountryList, CountryContent, DistrictContent, NationalDayContent } from '../../../common/contracts/catalogue-places.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { flagUrl } from '../catalogue/catalogue.service.ts';
import { type BookRow, emptyBook, LIST_SEPARATOR, sheetDef, splitList } from '../catalogue-io/sheets.ts';
import { validateBook } from '../catalogue-io/validate.ts';
import { checkRow } from '../catalogue-io/workbook.ts';

const COUNTRIES_SHEET = sheetDef('countries');
const DISTRICTS_SHEET = sheetDef('districts');
const NATIONAL_DAYS_SHEET = sheetDef('nationalDays');

/** The form's text as the importer would read it: trimmed; empty is "not filled in". */
const typed = (value: string | null) => (value === null || value.trim() === '' ? null : value.trim());

export function createPlaces(db: Kysely<Database>, options: { now: () => number }) {
  async function continents() {
    return db.selectFrom('continent').select(['continent_id', 'name', 'name_en', 'sort']).orderBy('sort').orderBy('continent_id').execute();
  }

  async function usedDistricts(districtIds: number[]): Promise<Set<number>> {
    if (districtIds.length === 0) return new Set();
    const [products, slots] = await Promise.all([
      db.selectFrom('visa_product').select('consular_district_id').distinct().where('consular_district_id', 'in', districtIds).execute(),
      db.selectFrom('interview_slot').select('consular_district_id').distinct().where('consular_district_id', 'in', districtIds).execute(),
    ]);
    return new Set([...products, ...slots].map((row) => Number(row.consular_district_id)));
  }

  /** The importer's rules on the edited country and its districts; the first problem is the answer. */
  async function check(
    visaCountryId: number | null,
    country: CountryContent,
    districts: DistrictContent[],
    nationalDays: NationalDayContent[] = [],
  ): Promise<void> {
    const allContinents = await continents();
    const continent = allContinents.find((c) => c.continent_id === country.continent_id);
    if (!continent) throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, '大洲不存在');
    const countryRow = checkRow(COUNTRIES_SHEET, {
      iso: typed(country.iso_code),
      name: typed(country.name),
      name_en: typed(country.name_en),
      continent: continent.name,
      description: country.description.trim(),
      hot: country.hot,
      status: country.status,
    });
    const first = countryRow.problems[0];
    if (first) throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `${first.column}：${first.reason}`);
    const districtRows = districts.map((district, index) => {
      const checked = checkRow(DISTRICTS_SHEET, {
        country: countryRow.row.iso ?? null,
        name: typed(district.name),
        consulate_name: typed(district.consulate_name),
        city: typed(district.city),
        address: typed(district.address),
        provinces: district.province_codes.length === 0 ? null : district.province_codes.map((code) => code.trim()).join(LIST_SEPARATOR),
        interview_video_url: typed(district.interview_video_url),
      });
      const problem = checked.problems[0];
      if (problem) throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `第 ${index + 1} 个领区 · ${problem.column}：${problem.reason}`);
      return checked.row;
    });

    const seenDays = new Set<string>();
    nationalDays.forEach((day, index) => {
      const checked = checkRow(NATIONAL_DAYS_SHEET, { country: countryRow.row.iso ?? null, month_day: typed(day.month_day), name: typed(day.name) });
      const problem = checked.problems[0];
      if (problem) throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `第 ${index + 1} 个闭馆日 · ${problem.column}：${problem.reason}`);
      if (seenDays.has(day.month_day)) throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `第 ${index + 1} 个闭馆日 · ${day.month_day} 已经填过`);
      seenDays.add(day.month_day);
    });

    // The other countries as they are: an ISO code one of them has is a duplicate key of the 国家 sheet.
    const others = await db
      .selectFrom('visa_country')
      .select(['iso_code', 'name'])
      .$if(visaCountryId !== null, (q) => q.where('visa_country_id', '<>', visaCountryId!))
      .orderBy('visa_country_id')
      .execute();
    const book = emptyBook();
    book.continents = allContinents.map((c) => ({ id: c.continent_id, name: c.name, name_en: c.name_en, sort: c.sort }));
    book.countries = [...others.map((o): BookRow => ({ iso: o.iso_code, name: o.name, continent: continent.name })), countryRow.row];
    book.districts = districtRows;
    const edited = book.countries.length - 1;
    // Districts are numbered as the form shows them (第 1 个领区 …).
    const rowNumbers = { countries: book.countries.map((_, i) => i + 2), districts: districtRows.map((_, i) => i + 1) };
    for (const problem of validateBook(book, rowNumbers)) {
      if (problem.sheet === COUNTRIES_SHEET.name) {
        if (problem.row !== edited + 2) continue;
        if (problem.column === '国家代码') throw new AppError(ErrorCode.CATALOGUE_ISO_TAKEN);
        throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `${problem.column}：${problem.reason}`);
      }
      if (problem.sheet !== DISTRICTS_SHEET.name) continue;
      const label = `第 ${problem.row} 个领区（${districtRows[problem.row - 1]?.name ?? ''}）`;
      if (problem.reason === '领区至少要受理一个省份') throw new AppError(ErrorCode.CATALOGUE_DISTRICT_NO_PROVINCE, `${label}：领区至少要受理一个省份`);
      throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `${label} · ${problem.column}：${problem.reason}`);
    }
  }

  return {
    async list(): Promise<AdminCountryList> {
      const [allContinents, countries, districtCounts, productCounts] = await Promise.all([
        continents(),
        db
          .selectFrom('visa_country')
          .select(['visa_country_id', 'iso_code', 'name', 'continent_id', 'status'])
          .orderBy('continent_id')
          .orderBy('name')
          .execute(),
        db
          .selectFrom('consular_district')
          .select(['visa_country_id', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('visa_country_id')
          .execute(),
        db
          .selectFrom('visa_product')
          .select(['visa_country_id', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('visa_country_id')
          .execute(),
      ]);
      const count = (rows: Array<{ visa_country_id: number; n: number }>, id: number) => Number(rows.find((r) => r.visa_country_id === id)?.n ?? 0);
      return {
        continents: allContinents.map(({ continent_id, name }) => ({ continent_id, name })),
        list: countries.map((row) => ({
          ...row,
          flag: flagUrl(row.iso_code),
          district_count: count(districtCounts, row.visa_country_id),
          product_count: count(productCounts, row.visa_country_id),
        })),
      };
    },

    async editor(query: { visa_country_id?: number }): Promise<AdminCountryEditor> {
      const allContinents = (await continents()).map(({ continent_id, name }) => ({ continent_id, name }));
      if (!query.visa_country_id) {
        return {
          visa_country_id: null,
          version: 0,
          country: { iso_code: '', name: '', name_en: '', continent_id: allContinents[0]?.continent_id ?? 0, description: '', hot: 0, status: 0 },
          districts: [],
          national_days: [],
          continents: allContinents,
        };
      }
      const country = await db.selectFrom('visa_country').selectAll().where('visa_country_id', '=', query.visa_country_id).executeTakeFirst();
      if (!country) throw new AppError(ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND);
      const districts = await db
        .selectFrom('consular_district')
        .selectAll()
        .where('visa_country_id', '=', country.visa_country_id)
        .orderBy('consular_district_id')
        .execute();
      const ids = districts.map((d) => d.consular_district_id);
      const [provinces, used, nationalDays] = await Promise.all([
        ids.length === 0
          ? Promise.resolve([])
          : db.selectFrom('consular_district_province').selectAll().where('consular_district_id', 'in', ids).orderBy('province_code').execute(),
        usedDistricts(ids),
        db
          .selectFrom('country_national_day')
          .select(['month_day', 'name'])
          .where('visa_country_id', '=', country.visa_country_id)
          .orderBy('month_day')
          .execute(),
      ]);
      return {
        visa_country_id: country.visa_country_id,
        version: country.version,
        country: {
          iso_code: country.iso_code,
          name: country.name,
          name_en: country.name_en,
          continent_id: country.continent_id,
          description: country.description,
          hot: country.hot,
          status: country.status === 1 ? 1 : 0,
        },
        districts: districts.map((d) => ({
          consular_district_id: d.consular_district_id,
          name: d.name,
          consulate_name: d.consulate_name,
          city: d.city,
          address: d.address,
          province_codes: provinces.filter((p) => p.consular_district_id === d.consular_district_id).map((p) => p.province_code),
          interview_video_url: d.interview_video_url,
          in_use: used.has(d.consular_district_id),
        })),
        national_days: nationalDays,
        continents: allContinents,
      };
    },

    async save(payload: {
      visa_country_id?: number;
      version: number;
      country: CountryContent;
      districts: DistrictContent[];
      national_days?: NationalDayContent[];
    }): Promise<{ visa_country_id: number; version: number }> {
      const countryId = payload.visa_country_id ?? null;
      // A new country starts at version 1; version 0 is what the editor of a new one reads.
      if (countryId === null && payload.version !== 0) throw new AppError(ErrorCode.CATALOGUE_COUNTRY_CONFLICT);
      const existing =
        countryId === null
          ? []
          : await db.selectFrom('consular_district').select(['consular_district_id', 'name']).where('visa_country_id', '=', countryId).execute();
      const before =
        countryId === null
          ? null
          : await db.selectFrom('visa_country').select(['iso_code', 'name', 'version']).where('visa_country_id', '=', countryId).executeTakeFirst();
      if (countryId !== null && !before) throw new AppError(ErrorCode.CATALOGUE_COUNTRY_NOT_FOUND);
      // Another editor saved since this one read the country: refused before anything else (their save is kept, this one is not written).
      if (before && before.version !== payload.version) throw new AppError(ErrorCode.CATALOGUE_COUNTRY_CONFLICT);
      const existingIds = new Set(existing.map((d) => d.consular_district_id));
      const stranger = payload.districts.find((d) => d.consular_district_id !== undefined && !existingIds.has(d.consular_district_id));
      if (stranger) throw new AppError(ErrorCode.CATALOGUE_PLACE_INVALID, `领区 ${stranger.consular_district_id} 不属于该国家`);
      await check(countryId, payload.country, payload.districts, payload.national_days);

      const kept = new Set(payload.districts.map((d) => d.consular_district_id).filter((id): id is number => id !== undefined));
      const removed = existing.filter((d) => !kept.has(d.consular_district_id)).map((d) => d.consular_district_id);
      const inUse = await usedDistricts(removed);
      if (inUse.size > 0) {
        const name = existing.find((d) => inUse.has(d.consular_district_id))?.name ?? '';
        throw new AppError(ErrorCode.CATALOGUE_DISTRICT_IN_USE, `领区“${name}”已有产品或面试时段，不能删除`);
      }
      const country = {
        iso_code: payload.country.iso_code.trim(),
        name: payload.country.name.trim(),
        name_en: payload.country.name_en.trim(),
        continent_id: payload.country.continent_id,
        description: payload.country.description.trim(),
        hot: payload.country.hot,
        status: payload.country.status,
      };
      try {
        return await db.transaction().execute(async (trx) => {
          let id = countryId;
          if (id === null) {
            id = (
              await trx
                .insertInto('visa_country')
                .values({ ...country, version: 1 })
                .returning('visa_country_id')
                .executeTakeFirstOrThrow()
            ).visa_country_id;
          } else {
            // Only the holder of the version read writes: a save that committed meanwhile leaves 0 rows here, and nothing of this one is written.
            const claimed = await trx
              .updateTable('visa_country')
              .set({ ...country, version: payload.version + 1 })
              .where('visa_country_id', '=', id)
              .where('version', '=', payload.version)
              .executeTakeFirst();
            if (Number(claimed.numUpdatedRows) !== 1) throw new AppError(ErrorCode.CATALOGUE_COUNTRY_CONFLICT);
          }
          if (removed.length > 0) {
            await trx.deleteFrom('consular_district_province').where('consular_district_id', 'in', removed).execute();
            await trx.deleteFrom('consular_district').where('consular_district_id', 'in', removed).execute();
          }
          for (const district of payload.districts) {
            const values = {
              visa_country_id: id,
              name: district.name.trim(),
              consulate_name: district.consulate_name.trim(),
              city: district.city.trim(),
              address: district.address.trim(),
              interview_video_url: typed(district.interview_video_url),
            };
            let districtId = district.consular_district_id;
            if (districtId === undefined) {
              districtId = (await trx.insertInto('consular_district').values(values).returning('consular_district_id').executeTakeFirstOrThrow())
                .consular_district_id;
            } else {
              await trx.updateTable('consular_district').set(values).where('consular_district_id', '=', districtId).execute();
              await trx.deleteFrom('consular_district_province').where('consular_district_id', '=', districtId).execute();
            }
            const codes = [...new Set(splitList(district.province_codes.join(LIST_SEPARATOR)))];
            await trx
              .insertInto('consular_district_province')
              .values(codes.map((province_code) => ({ consular_district_id: districtId!, province_code })))
              .execute();
          }
          // The whole list replaces the country's (absent: unchanged). The slot calendar reads it live (interview/calendar.ts).
          if (payload.national_days) {
            await trx.deleteFrom('country_national_day').where('visa_country_id', '=', id).execute();
            if (payload.national_days.length > 0)
              await trx
                .insertInto('country_national_day')
                .values(payload.national_days.map((day) => ({ visa_country_id: id, month_day: day.month_day.trim(), name: day.name.trim() })))
                .execute();
          }
          // The product pages show the country's and the district's names: when one changes they are rendered
          // afresh (decision 0004). Otherwise the products are left alone (a draft's base stays current).
          const renamed =
            before !== null &&
            before !== undefined &&
            (before.name !== country.name ||
              before.iso_code !== country.iso_code ||
              payload.districts.some(
                (d) => d.consular_district_id !== undefined && existing.find((e) => e.consular_district_id === d.consular_district_id)?.name !== d.name.trim(),
              ));
          if (renamed) {
            const products = await trx.selectFrom('visa_product').select(['visa_product_id', 'updated_at']).where('visa_country_id', '=', id).execute();
            const now = options.now();
            for (const product of products) {
              await trx
                .updateTable('visa_product')
                .set({ updated_at: Math.max(now, product.updated_at + 1) })
                .where('visa_product_id', '=', product.visa_product_id)
                .execute();
            }
          }
          return { visa_country_id: id, version: countryId === null ? 1 : payload.version + 1 };
        });
      } catch (error) {
        if (error instanceof AppError) throw error;
        // Another supervisor saved the same ISO code a moment ago: the unique index refuses it.
        const e = error as { code?: string; message?: string };
        if (e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '')) throw new AppError(ErrorCode.CATALOGUE_ISO_TAKEN);
        throw error;
      }
    },
  };
}

export type Places = ReturnType<typeof createPlaces>;
