// Reports (issue 29): the 出行团组 calls (/www/order/order_group_set and
// order_group_list) and the order export's download,
// GET /files/export/orders.xlsx | orders.csv?ids=…|group=…|from=…&to=… — the
// customer's session from X-Token or the `token` cookie, like the stored
// files' routes. Everything the criteria name is checked before the first
// byte: a refusal is the spec's envelope (an order of another enterprise the
// same 1801 as a missing one); after that the file streams (export-writers.ts).
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { STORAGE_KEYS } from '../../../common/constants.ts';
import { orderExportQuery, orderGroupList, orderGroupSet } from '../../../common/contracts/report.ts';
import { ERROR_CATALOGUE, ErrorCode } from '../../../common/error-codes.ts';
import { chinaDate } from '../../../common/order.ts';
import { ORDER_GROUP_NAME_MAX, ORDER_SELECTION_MAX } from '../../../common/report.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { defineOperation } from '../../platform/operation.ts';
import { customer as customerOf, type Customer } from '../../platform/principal.ts';
import { cookieValue } from '../../web/cookies.ts';
import { createExportRows, criteriaOf } from './export-rows.ts';
import { writeCsv, writeXlsx } from './export-writers.ts';

const TAG = '订单 · 报表';
/** Exports per account per minute. */
export const EXPORTS_PER_MINUTE = 20;

export function createReportService(db: Kysely<Database>) {
  const rows = createExportRows(db);

  async function setGroup(customer: Customer, input: { user_order_ids: number[]; group_name: string | null }) {
    const ids = [...new Set(input.user_order_ids)];
    if (ids.length === 0) throw new AppError(ErrorCode.EXPORT_SELECTION_EMPTY);
    if (ids.length > ORDER_SELECTION_MAX) throw new AppError(ErrorCode.ORDER_GROUP_TOO_MANY);
    const name = input.group_name === null ? null : normalizeInputText(input.group_name);
    if (name !== null && (name.length < 1 || [...name].length > ORDER_GROUP_NAME_MAX)) throw new AppError(ErrorCode.ORDER_GROUP_NAME_INVALID);
    return db.transaction().execute(async (trx) => {
      const owned = await trx
        .selectFrom('user_order')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('enterprise_id', '=', customer.enterpriseId)
        .where('user_order_id', 'in', ids)
        .executeTakeFirstOrThrow();
      // Another enterprise's order is refused exactly like a missing one.
      if (Number(owned.count) !== ids.length) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
      const result = await trx
        .updateTable('user_order')
        .set({ group_name: name })
        .where('enterprise_id', '=', customer.enterpriseId)
        .where('user_order_id', 'in', ids)
        .executeTakeFirst();
      return { updated: Number(result.numUpdatedRows), group_name: name };
    });
  }

  async function groups(customer: Customer) {
    const found = await db
      .selectFrom('user_order')
      .select((eb) => ['group_name', eb.fn.countAll<number>().as('count')])
      .where('enterprise_id', '=', customer.enterpriseId)
      .where('group_name', 'is not', null)
      .groupBy('group_name')
      .orderBy('group_name')
      .execute();
    return { groups: found.map((row) => ({ group_name: row.group_name!, order_count: Number(row.count) })) };
  }

  return { setGroup, groups, rows };
}

export type ReportService = ReturnType<typeof createReportService>;

export function reportOperations(service: ReportService) {
  return [
    defineOperation({
      ...orderGroupSet,
      tag: TAG,
      summary: '把订单放进出行团组（或移出）',
      description: `一次 1–${ORDER_SELECTION_MAX} 个本企业的订单；团组名称 1–${ORDER_GROUP_NAME_MAX} 字，null 移出团组。有一个订单不是本企业的，全部不改（1801）。`,
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.EXPORT_SELECTION_EMPTY, ErrorCode.ORDER_GROUP_TOO_MANY, ErrorCode.ORDER_GROUP_NAME_INVALID],
      handle: (payload, { caller }) => service.setGroup(caller, payload),
    }),
    defineOperation({
      ...orderGroupList,
      tag: TAG,
      summary: '本企业的出行团组及每个团组的订单数',
      auth: 'customer',
      errors: [],
      handle: (_payload, { caller }) => service.groups(caller),
    }),
  ];
}

/** Content-Disposition of a download under a Chinese name (an ASCII fallback, then RFC 5987). */
function attachment(name: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function refuse(reply: FastifyReply, ret: keyof typeof ERROR_CATALOGUE, msg?: string) {
  const entry = ERROR_CATALOGUE[ret];
  return reply
    .code(entry.http)
    .header('cache-control', 'no-store')
    .send({ ret, msg: msg ?? entry.msg, body: null });
}

/** GET /files/export/orders.(xlsx|csv): the download (see the top of this file). */
export function registerExportRoutes(
  app: FastifyInstance,
  service: ReportService,
  deps: {
    authenticate: (token: string | undefined) => Promise<{ accountId: number; enterpriseId: number } | null>;
    now: () => number;
    /** Whether this account may export once more now (a throttle: an export costs the server a second or so). */
    allow: (accountId: number) => Promise<boolean>;
  },
): void {
  app.get<{ Params: { format: string }; Querystring: Record<string, string> }>(
    '/files/export/orders.:format',
    { compress: false, schema: { hide: true } },
    async (request: FastifyRequest<{ Params: { format: string }; Querystring: Record<string, string> }>, reply) => {
      const header = request.headers['x-token'];
      const token = typeof header === 'string' && header !== '' ? header : cookieValue(request, STORAGE_KEYS.tokenCookie);
      const account = await deps.authenticate(token);
      if (!account) return refuse(reply, ErrorCode.NOT_LOGGED_IN);
      if (!(await deps.allow(account.accountId))) return refuse(reply, ErrorCode.TOO_MANY_REQUESTS);
      const format = request.params.format;
      if (format !== 'xlsx' && format !== 'csv') return refuse(reply, ErrorCode.EXPORT_FORMAT_INVALID);
      const query = orderExportQuery.safeParse(request.query ?? {});
      if (!query.success) return refuse(reply, ErrorCode.INVALID_PARAMS);
      const caller = customerOf(account.accountId, account.enterpriseId);
      let criteria;
      try {
        criteria = criteriaOf(query.data);
        await service.rows.check(caller, criteria);
      } catch (error) {
        if (error instanceof AppError) return refuse(reply, error.ret, error.message);
        throw error;
      }
      const out = new PassThrough();
      const name = `订单导出-${chinaDate(deps.now()).replace(/-/g, '')}.${format}`;
      const write = format === 'xlsx' ? writeXlsx : writeCsv;
      write(out, service.rows.pages(caller, criteria)).catch((error: unknown) => {
        request.log.error({ err: error }, 'order export failed while streaming');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return reply
        .header('content-type', format === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8')
        .header('content-disposition', attachment(name))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(out);
    },
  );
}
