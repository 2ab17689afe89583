import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineOperation } from '../../platform/operation.ts';
import { addressLibraryFile } from './address-library.ts';

export function systemOperations() {
  return [
    defineOperation({
      path: '/www/sys_config_get',
      tag: '系统',
      summary: '系统配置（地址库下载地址等）',
      description: 'addr_download_url 指向带内容哈希的地址库 JSON（86 → 省 → 市 → 区县），可长期缓存；文件内容变化时地址随之变化。',
      auth: 'none',
      payload: z.object({}),
      result: z.object({
        addr_download_url: z.string().describe('地址库 JSON 的地址'),
        address_root_region: z.string().describe('地址库根键，86 = 中国'),
      }),
      errors: [],
      handle: async () => ({ addr_download_url: addressLibraryFile().urlPath, address_root_region: '86' }),
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
