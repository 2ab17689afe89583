// Payload and result schemas of the address book calls. Text fields are
// loose here: the service answers with a precise Chinese error of its own.
import { z } from 'zod';
import { ADDRESS_KIND_VALUES, type AddressView } from '../../../common/address.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';

const kind = z.enum(ADDRESS_KIND_VALUES).describe('return 回寄地址（护照寄回给客户），peer 同行地址（护照转寄给合作同行）');
const code = z.string().max(12);

export const addressListPayload = z.object({ kind });

export const addressSavePayload = z.object({
  address_id: idField.nullish().describe('修改时传入；不传为新增'),
  kind,
  company_name: z.string().max(200).nullish().describe('同行公司名称，同行地址必填（1–50 个字）'),
  name: z.string().max(200).describe('联系人姓名，1–20 个字'),
  mobile_phone: z.string().max(40).describe('中国大陆手机号 1[3-9]xxxxxxxxx'),
  province_code: code.describe('地址库中 86 下的省级代码'),
  city_code: code.describe('该省下的市级代码'),
  county_code: code.nullish().describe('该市下的区县代码；地址库中该市没有区县时为空'),
  detail: z.string().max(400).describe('详细地址，2–100 个字'),
  is_default: z.boolean().optional().describe('设为默认地址（同类地址只有一个默认）'),
});

export const addressDeletePayload = z.object({ address_id: idField });

export const addressSchema = z.object({
  address_id: z.number(),
  kind,
  company_name: z.string().nullable(),
  name: z.string(),
  mobile_phone: z.string(),
  province_code: z.string(),
  city_code: z.string(),
  county_code: z.string(),
  province_name: z.string(),
  city_name: z.string(),
  county_name: z.string(),
  detail: z.string(),
  is_default: z.boolean(),
  updated_at: z.number(),
}) satisfies z.ZodType<AddressView>;

export const addressListResult = z.object({ list: z.array(addressSchema) });
export const addressDeleteResult = z.object({ address_id: z.number() });
