// The system calls: the config (address library), the mini-program QR code,
// the caller's province.
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { noPayload } from './fields.ts';

export const sysConfigGet = defineContract({
  path: '/www/sys_config_get',
  payload: noPayload,
  result: z.object({
    addr_download_url: z.string().describe('地址库 JSON 的地址'),
    address_root_region: z.string().describe('地址库根键，86 = 中国'),
  }),
});

export const qrcodeGet = defineContract({
  path: '/www/qrcode_get',
  payload: z.object({
    page: z.string().regex(/^[A-Za-z0-9_/-]{1,100}$/),
    scene: z.string().min(1).max(32).describe('小程序场景值，最多 32 个字符'),
    size: z.number().int().min(100).max(1280).default(300),
  }),
  result: z.object({ qrcode: z.string().describe('base64 编码的 JPEG 图片（不含 data: 前缀）') }),
});

export const ipLocationGet = defineContract({
  path: '/www/ip_location_get',
  payload: noPayload,
  result: z.object({ province_code: z.string(), province_name: z.string() }).nullable(),
});

export const SYSTEM_CONTRACTS = [sysConfigGet, qrcodeGet, ipLocationGet] as const;

export type SysConfig = ResultOf<typeof sysConfigGet>;
