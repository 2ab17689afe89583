// Reading a passport data page's machine-readable zone (issue 28 part 2): the
// customer's photo or scan in, the fields read out. Nothing is stored; the
// form shows each field as read by the machine until the customer confirms it.
import { z } from 'zod';
import { defineContract } from './define.ts';

export const passportFields = z.object({
  surname: z.string().describe('姓（机读区拼写；中国护照为拼音），如 ZHANG'),
  given_names: z.string().describe('名（机读区拼写），多个名以空格分隔，如 SAN'),
  passport_no: z.string().describe('护照号码'),
  nationality: z.string().describe('国籍（ISO 3166-1 三字母代码，如 CHN；德国为 D）'),
  issuing_state: z.string().describe('签发国（三字母代码）'),
  birth_date: z.string().describe('出生日期 YYYY-MM-DD'),
  sex: z.enum(['M', 'F']).nullable().describe('性别：M 男，F 女，null 未注明'),
  expiry_date: z.string().describe('护照有效期至 YYYY-MM-DD'),
});

export const passportRead = defineContract({
  path: '/www/passport/passport_read',
  body: 'multipart',
  payload: z.object({}),
  result: z.object({
    fields: passportFields,
    /** 中国护照：姓名汉字不在机读区，须由客户填写。 */
    chinese_passport: z.boolean().describe('国籍为 CHN：机读区只有拼音，姓名汉字须由客户填写'),
    expired: z.boolean().describe('护照已过期（有效期早于今天，北京时间）'),
  }),
});

export const PASSPORT_SCAN_CONTRACTS = [passportRead] as const;

export type PassportFields = z.output<typeof passportFields>;
export type PassportReadResult = z.output<typeof passportRead.result>;
