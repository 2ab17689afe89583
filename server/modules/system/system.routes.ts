import type { FastifyInstance } from 'fastify';
import { ipLocationGet, qrcodeGet, sysConfigGet } from '../../../common/contracts/system.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { RateLimiter } from '../../platform/rate-limit.ts';
import { addressLibraryFile } from './address-library.ts';
import { locateProvince } from './ip-location.ts';
import { miniProgramLink, renderQrCodeJpegBase64 } from './qrcode.ts';

export interface SystemDeps {
  miniProgramLinkBase: string;
  rateLimiter: RateLimiter;
  now: () => number;
}

/** Rendered QR codes by link and size: one render costs ~35 ms of the event loop. */
const QR_CACHE_MAX = 2_000;
const qrCache = new Map<string, string>();
/** Renders (cache misses) per client and minute. */
const QR_RENDERS_PER_MINUTE = 30;

export function systemOperations({ miniProgramLinkBase, rateLimiter, now }: SystemDeps) {
  return [
    defineOperation({
      ...sysConfigGet,
      tag: '系统',
      summary: '系统配置（地址库下载地址等）',
      description: 'addr_download_url 指向带内容哈希的地址库 JSON（86 → 省 → 市 → 区县），可长期缓存；文件内容变化时地址随之变化。',
      auth: 'none',
      errors: [],
      handle: async () => ({ addr_download_url: addressLibraryFile().urlPath, address_root_region: '86' }),
    }),
    defineOperation({
      ...qrcodeGet,
      tag: '系统',
      summary: '小程序码：指向小程序页面与场景值的二维码（base64 JPEG）',
      description:
        '网页在访客点击「立即办理」时调用：page 为 pages/visa/visa-detail/visa-detail，scene 为 v={visa_product_id}&u=official，size 为 300。二维码内容为小程序链接 + page + ?scene=（URL 编码）。',
      auth: 'none',
      errors: [ErrorCode.TOO_MANY_REQUESTS],
      handle: async ({ page, scene, size }, { request }) => {
        const link = miniProgramLink(miniProgramLinkBase, page, scene);
        const key = `${size}|${link}`;
        let qrcode = qrCache.get(key);
        if (!qrcode) {
          if (!(await rateLimiter.hit(`qrcode:ip:${request.ip}`, QR_RENDERS_PER_MINUTE, 60_000, now()))) throw new AppError(ErrorCode.TOO_MANY_REQUESTS);
          qrcode = renderQrCodeJpegBase64(link, size);
          if (qrCache.size >= QR_CACHE_MAX) qrCache.delete(qrCache.keys().next().value!);
          qrCache.set(key, qrcode);
        }
        return { qrcode };
      },
    }),
    defineOperation({
      ...ipLocationGet,
      tag: '系统',
      summary: '调用方所在省份（离线 IP 库 ip2region），用于预选居住地',
      description: '内网、境外或无法识别的地址返回 null。',
      auth: 'none',
      errors: [],
      handle: async (_payload, { request }) => locateProvince(request.ip),
    }),
  ];
}

/** GET {addr_download_url}: immutable, so browsers and proxies may keep it a year. */
export function registerAddressLibraryFile(app: FastifyInstance): void {
  const file = addressLibraryFile();
  app.get(file.urlPath, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    reply.type('application/json; charset=utf-8');
    return file.json;
  });
}
