// The address book calls. Text fields are loose in the payload: the service
// answers each broken rule (rules.ts ADDRESS_LIMITS) with a Chinese error of its own.
import { z } from 'zod';
import { ADDRESS_KIND_VALUES } from '../address.ts';
import { defineContract, type ParsedPayloadOf, type ResultOf } from './define.ts';
import { idField } from './fields.ts';
import { ADDRESS_LIMITS as L } from './rules.ts';

const kind = z.enum(ADDRESS_KIND_VALUES).describe('return 回寄地址（护照寄回给客户），peer 同行地址（护照转寄给合作同行）');
const code = z.string().max(12);

const address = z.object({
  address_id: z.number(),
  kind,
  company_name: z.string().nullable().describe('同行公司名称；回寄地址为 null'),
  name: z.string(),
  mobile_phone: z.string(),
  province_code: z.string(),
  city_code: z.string(),
  county_code: z.string().describe('地址库中该市没有区县时为空字符串'),
  province_name: z.string(),
  city_name: z.string(),
  county_name: z.string(),
  detail: z.string(),
  is_default: z.boolean(),
  updated_at: z.number(),
});

export const addressList = defineContract({
  path: '/www/address/address_list',
  payload: z.object({ kind }),
  result: z.object({ list: z.array(address) }),
});

export const addressSave = defineContract({
  path: '/www/address/address_save',
  payload: z.object({
    address_id: idField.nullish().describe('修改时传入；不传为新增'),
    kind,
    company_name: z.string().max(200).nullish().describe(`同行公司名称，同行地址必填（1–${L.companyMaxLength} 个字）`),
    name: z.string().max(200).describe(`联系人姓名，1–${L.nameMaxLength} 个字`),
    mobile_phone: z.string().max(40).describe('中国大陆手机号 1[3-9]xxxxxxxxx'),
    province_code: code.describe('地址库中 86 下的省级代码'),
    city_code: code.describe('该省下的市级代码'),
    county_code: code.nullish().describe('该市下的区县代码；地址库中该市没有区县时为空'),
    detail: z.string().max(400).describe(`详细地址，${L.detailMinLength}–${L.detailMaxLength} 个字`),
    is_default: z.boolean().optional().describe('设为默认地址（同类地址只有一个默认）'),
  }),
  result: address,
});

export const addressDelete = defineContract({
  path: '/www/address/address_delete',
  payload: z.object({ address_id: idField }),
  result: z.object({ address_id: z.number() }),
});

export const ADDRESS_CONTRACTS = [addressList, addressSave, addressDelete] as const;

export type AddressView = z.output<typeof address>;
export type AddressSaveInput = ParsedPayloadOf<typeof addressSave>;
export type AddressList = ResultOf<typeof addressList>;
