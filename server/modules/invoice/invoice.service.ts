// Invoices (发票, issue 29; rules: docs/order-rules.md "Invoices").
// - The customer requests an invoice for one or more paid orders of the
//   enterprise; per order the amount defaults to what can still be invoiced.
//   What can be invoiced of an order = paid − refunded (refunds not failed) −
//   the amounts of its invoices that are requested or issued. That sum is read
//   and spent inside one transaction holding the orders' rows (FOR UPDATE on
//   PostgreSQL; SQLite runs one writer at a time), so two requests at once
//   cannot both take the same money. The details become the enterprise's
//   default for next time.
// - An operator issues a request by uploading the e-invoice PDF (checked like
//   every upload), in one call: the rule is checked again then (a refund may
//   have come in between), the file is attached and the customer told (an
//   in-app notice and an e-mail to the invoice's address, through the notices'
//   outbox). Or rejects it with a reason (the customer is told too).
// - A refund of an order after its invoice was issued makes the invoice 待红冲
//   (computed from the refunds, so every way of refunding counts) until an
//   operator records the reversal (已红冲).
import { type Kysely, PostgresAdapter, type Selectable, sql, type Transaction } from 'kysely';
import type { AdminInvoiceView, InvoiceProfile, InvoiceView } from '../../../common/contracts/invoice.ts';
import { EMAIL_PATTERN } from '../../../common/contracts/rules.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { formatPrice } from '../../../common/format.ts';
import { INVOICE_LIMITS, INVOICE_REVERSAL_LABELS, INVOICE_STATUSES, type InvoiceReversal, isCreditCode, normalizeTaxId } from '../../../common/invoice.ts';
import { orderNumber } from '../../../common/order-number.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { Database, InvoiceTable } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Customer, Operator } from '../../platform/principal.ts';
import { noticeEmail } from '../order-notices/notice-kinds.ts';
import { queueNoticeEmail } from '../order-notices/notice-store.ts';
import { orderMoney } from '../refund/refund-records.ts';
import { createStoredFiles, type StoredFileDeps, type UploadSource } from '../stored-file/stored-files.ts';
import { invoiceFiles } from './invoice-files.ts';

type Db = Kysely<Database> | Transaction<Database>;
const isPg = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;
const PAGE_SIZE = 10;
type InvoiceRow = Selectable<InvoiceTable> & { reversal_due: boolean };
/** The customer's page of invoices (the notice's link). */
export const INVOICE_PAGE = '/user/invoice';

export interface InvoiceRequestInput {
  title: string;
  tax_id: string;
  address_phone: string;
  bank_account: string;
  email: string;
  orders: Array<{ user_order_id: number; amount?: number | undefined }>;
}

const length = (text: string) => [...text].length;

/** The request's details, normalized, or the field's refusal. */
export function checkDetails(input: Omit<InvoiceRequestInput, 'orders'>): InvoiceProfile {
  const title = normalizeInputText(input.title);
  if (length(title) < INVOICE_LIMITS.titleMin || length(title) > INVOICE_LIMITS.titleMax) throw new AppError(ErrorCode.INVOICE_TITLE_INVALID);
  const taxId = normalizeTaxId(input.tax_id);
  if (!isCreditCode(taxId)) throw new AppError(ErrorCode.INVOICE_TAX_ID_INVALID);
  const addressPhone = normalizeInputText(input.address_phone);
  if (length(addressPhone) > INVOICE_LIMITS.addressPhoneMax) throw new AppError(ErrorCode.INVOICE_ADDRESS_PHONE_INVALID);
  const bankAccount = normalizeInputText(input.bank_account);
  if (length(bankAccount) > INVOICE_LIMITS.bankAccountMax) throw new AppError(ErrorCode.INVOICE_BANK_INVALID);
  const email = normalizeInputText(input.email);
  if (email.length > INVOICE_LIMITS.emailMax || !EMAIL_PATTERN.test(email)) throw new AppError(ErrorCode.INVOICE_EMAIL_INVALID);
  return { title, tax_id: taxId, address_phone: addressPhone, bank_account: bankAccount, email };
}

/** Per order: paid, given back or on its way back, and already invoiced (requested or issued, but `exceptInvoice`). */
async function moneyOf(db: Db, ids: number[], exceptInvoice = 0) {
  if (ids.length === 0) return new Map<number, { paid: number; refunded: number; invoiced: number }>();
  const [money, invoiced] = await Promise.all([
    orderMoney(db, ids),
    db
      .selectFrom('invoice_order as io')
      .innerJoin('invoice as i', 'i.invoice_id', 'io.invoice_id')
      .select((eb) => ['io.user_order_id', eb.fn.sum<number>('io.amount').as('total')])
      .where('io.user_order_id', 'in', ids)
      .where('i.status', 'in', ['requested', 'issued'])
      .where('i.invoice_id', '!=', exceptInvoice)
      .groupBy('io.user_order_id')
      .execute(),
  ]);
  const v = new Map(invoiced.map((row) => [row.user_order_id, Number(row.total)]));
  return new Map(
    ids.map((id) => {
      const m = money.get(id)!;
      return [id, { paid: m.paid, refunded: m.refunded + m.refunding, invoiced: v.get(id) ?? 0 }];
    }),
  );
}

const available = (money: { paid: number; refunded: number; invoiced: number }) => Math.max(0, money.paid - money.refunded - money.invoiced);

export function createInvoiceService(db: Kysely<Database>, deps: StoredFileDeps & { pokeOutbox: () => void }) {
  const { now } = deps;
  const storedFiles = createStoredFiles(db, invoiceFiles, deps);

  /** The enterprise's orders among these ids, or 1801 when one is not (another enterprise's is the same as a missing one). */
  async function ownedOrders(db: Db, customer: Customer, ids: number[], lock: boolean) {
    let query = db
      .selectFrom('user_order')
      .select(['user_order_id', 'order_no', 'created_at', 'product_title'])
      .where('enterprise_id', '=', customer.enterpriseId)
      .where('user_order_id', 'in', ids)
      .orderBy('user_order_id');
    if (lock && isPg(db)) query = query.forUpdate();
    const rows = await query.execute();
    if (rows.length !== ids.length) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
    return rows;
  }

  /** Whether an issued invoice needs its reversal: a refund (not failed) of its orders created after it was issued. */
  function reversalDue() {
    return sql<boolean>`exists (select 1 from invoice_order io join refund r on r.user_order_id = io.user_order_id
      where io.invoice_id = invoice.invoice_id and r.status <> 'failed' and r.created_at > invoice.issued_at)`;
  }

  async function views(rows: Array<InvoiceRow>, audience: 'customer' | 'operator'): Promise<AdminInvoiceView[]> {
    const ids = rows.map((row) => row.invoice_id);
    if (ids.length === 0) return [];
    const [orders, files, operators, enterprises] = await Promise.all([
      db
        .selectFrom('invoice_order as io')
        .innerJoin('user_order as o', 'o.user_order_id', 'io.user_order_id')
        .select(['io.invoice_id', 'io.user_order_id', 'io.amount', 'o.order_no', 'o.created_at', 'o.product_title'])
        .where('io.invoice_id', 'in', ids)
        .orderBy('io.user_order_id')
        .execute(),
      db
        .selectFrom('invoice_file')
        .select(['file_id', 'invoice_id', 'file_name', 'size_bytes', 'sha256'])
        .where('invoice_id', 'in', ids)
        .orderBy('file_id', 'desc')
        .execute(),
      db.selectFrom('operator').select(['id', 'name']).execute(),
      db
        .selectFrom('enterprise')
        .select(['id', 'name'])
        .where(
          'id',
          'in',
          rows.map((row) => row.enterprise_id),
        )
        .execute(),
    ]);
    const operatorName = new Map(operators.map((row) => [row.id, row.name]));
    const enterpriseName = new Map(enterprises.map((row) => [row.id, row.name]));
    return rows.map((row) => {
      const file = files.find((f) => f.invoice_id === row.invoice_id);
      const reversal: InvoiceReversal = row.reversed_at !== null ? 'done' : row.reversal_due ? 'due' : 'none';
      return {
        invoice_id: row.invoice_id,
        status: row.status,
        status_label: INVOICE_STATUSES[row.status],
        title: row.title,
        tax_id: row.tax_id,
        address_phone: row.address_phone,
        bank_account: row.bank_account,
        email: row.email,
        amount: row.amount,
        orders: orders
          .filter((o) => o.invoice_id === row.invoice_id)
          .map((o) => ({
            user_order_id: o.user_order_id,
            order_no: o.order_no ?? orderNumber(o.user_order_id, o.created_at),
            product_title: o.product_title,
            amount: o.amount,
          })),
        created_at: row.created_at,
        issued_at: row.issued_at,
        reject_reason: row.reject_reason,
        reversal,
        reversal_label: INVOICE_REVERSAL_LABELS[reversal],
        file: file
          ? {
              file_id: file.file_id,
              file_name: file.file_name,
              size: file.size_bytes,
              url: invoiceFiles.urlOf(audience, { id: file.file_id, sha256: file.sha256 }),
            }
          : null,
        enterprise_name: enterpriseName.get(row.enterprise_id) ?? '',
        issued_by: row.issued_by === null ? null : (operatorName.get(row.issued_by) ?? null),
      };
    });
  }

  function invoices() {
    return db.selectFrom('invoice').selectAll('invoice').select(reversalDue().as('reversal_due'));
  }

  async function one(invoiceId: number, audience: 'customer' | 'operator'): Promise<AdminInvoiceView> {
    const row = await invoices().where('invoice_id', '=', invoiceId).executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.INVOICE_NOT_FOUND);
    return (await views([normalize(row)], audience))[0]!;
  }

  /** PostgreSQL answers a boolean, SQLite 0/1. */
  function normalize(row: InvoiceRow): InvoiceRow {
    return { ...row, reversal_due: Boolean(row.reversal_due) && row.status === 'issued' };
  }

  const customerView = (view: AdminInvoiceView): InvoiceView => {
    const { enterprise_name: _e, issued_by: _i, ...rest } = view;
    return rest;
  };

  /** The notice to the requesting account and its e-mail to the invoice's address, in the caller's transaction. */
  async function tell(
    trx: Transaction<Database>,
    invoice: { invoice_id: number; account_id: number; email: string; first_order: number },
    title: string,
    body: string,
  ) {
    const at = now();
    const link = `${INVOICE_PAGE}#invoice-${invoice.invoice_id}`;
    const { notice_id } = await trx
      .insertInto('notice')
      .values({
        recipient_kind: 'customer',
        recipient_id: invoice.account_id,
        kind: 'invoice',
        user_order_id: invoice.first_order,
        title,
        body,
        link,
        order_event_id: null,
        read_at: null,
        created_at: at,
      })
      .returning('notice_id')
      .executeTakeFirstOrThrow();
    await queueNoticeEmail(trx, { notice_id, to_address: invoice.email, ...noticeEmail({ title, body, link }) }, at);
  }

  /** The invoice's row for a change by an operator: requested only (a conditional update decides a race). */
  async function requestedInvoice(trx: Transaction<Database>, invoiceId: number) {
    let query = trx.selectFrom('invoice').selectAll().where('invoice_id', '=', invoiceId);
    if (isPg(trx)) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.INVOICE_NOT_FOUND);
    if (row.status !== 'requested') throw new AppError(ErrorCode.INVOICE_NOT_REQUESTED);
    return row;
  }

  async function ordersOf(trx: Db, invoiceId: number) {
    return trx.selectFrom('invoice_order').select(['user_order_id', 'amount']).where('invoice_id', '=', invoiceId).orderBy('user_order_id').execute();
  }

  return {
    storedFiles,

    async profile(customer: Customer): Promise<InvoiceProfile | null> {
      const row = await db
        .selectFrom('invoice_profile')
        .select(['title', 'tax_id', 'address_phone', 'bank_account', 'email'])
        .where('enterprise_id', '=', customer.enterpriseId)
        .executeTakeFirst();
      return row ?? null;
    },

    /** What each of these orders can still be invoiced for. */
    async invoiceable(customer: Customer, userOrderIds: number[]) {
      const ids = [...new Set(userOrderIds)];
      const orders = ids.length > 0 ? await ownedOrders(db, customer, ids, false) : [];
      const money = await moneyOf(db, ids);
      return {
        orders: orders.map((order) => {
          const m = money.get(order.user_order_id)!;
          return {
            user_order_id: order.user_order_id,
            order_no: order.order_no ?? orderNumber(order.user_order_id, order.created_at),
            product_title: order.product_title,
            ...m,
            invoiceable: available(m),
          };
        }),
        profile: await this.profile(customer),
      };
    },

    async request(customer: Customer, input: InvoiceRequestInput): Promise<InvoiceView> {
      const details = checkDetails(input);
      const ids = input.orders.map((o) => o.user_order_id);
      if (ids.length === 0 || new Set(ids).size !== ids.length) throw new AppError(ErrorCode.INVOICE_ORDERS_EMPTY);
      for (const order of input.orders) {
        if (order.amount !== undefined && order.amount <= 0) throw new AppError(ErrorCode.INVOICE_AMOUNT_INVALID);
      }
      const at = now();
      const invoiceId = await db.transaction().execute(async (trx) => {
        const orders = await ownedOrders(
          trx,
          customer,
          [...ids].sort((a, b) => a - b),
          true,
        );
        const money = await moneyOf(trx, ids);
        const lines = orders.map((order) => {
          const m = money.get(order.user_order_id)!;
          const label = order.order_no ?? orderNumber(order.user_order_id, order.created_at);
          if (m.paid === 0) throw new AppError(ErrorCode.INVOICE_ORDER_NOT_PAID, `订单 ${label} 尚未支付，不能开票`);
          const free = available(m);
          const asked = input.orders.find((o) => o.user_order_id === order.user_order_id)!.amount ?? free;
          if (asked <= 0 || asked > free) {
            throw new AppError(ErrorCode.INVOICE_AMOUNT_EXCEEDED, `订单 ${label} 的开票金额超过可开票金额（还可开 ${formatPrice(free)}）`);
          }
          return { user_order_id: order.user_order_id, amount: asked };
        });
        const { invoice_id } = await trx
          .insertInto('invoice')
          .values({
            enterprise_id: customer.enterpriseId,
            account_id: customer.accountId,
            status: 'requested',
            ...details,
            amount: lines.reduce((sum, line) => sum + line.amount, 0),
            created_at: at,
            issued_at: null,
            issued_by: null,
            rejected_at: null,
            reject_reason: null,
            reversed_at: null,
            reversed_by: null,
          })
          .returning('invoice_id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('invoice_order')
          .values(lines.map((line) => ({ invoice_id, ...line })))
          .execute();
        await trx
          .insertInto('invoice_profile')
          .values({ enterprise_id: customer.enterpriseId, ...details, updated_at: at })
          .onConflict((oc) => oc.column('enterprise_id').doUpdateSet({ ...details, updated_at: at }))
          .execute();
        return invoice_id;
      });
      return customerView(await one(invoiceId, 'customer'));
    },

    async list(customer: Customer, page: number) {
      const [rows, count, profile] = await Promise.all([
        invoices()
          .where('enterprise_id', '=', customer.enterpriseId)
          .orderBy('invoice_id', 'desc')
          .limit(PAGE_SIZE)
          .offset((page - 1) * PAGE_SIZE)
          .execute(),
        db
          .selectFrom('invoice')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('enterprise_id', '=', customer.enterpriseId)
          .executeTakeFirstOrThrow(),
        this.profile(customer),
      ]);
      return { profile, page_data: (await views(rows.map(normalize), 'customer')).map(customerView), total_count: Number(count.count) };
    },

    async adminList(_operator: Operator, input: { filter: 'requested' | 'reversal' | 'all'; page: number }) {
      const filtered = () => {
        const query = invoices();
        if (input.filter === 'requested') return query.where('status', '=', 'requested');
        if (input.filter === 'reversal') return query.where('status', '=', 'issued').where('reversed_at', 'is', null).where(reversalDue());
        return query;
      };
      const count = (query: ReturnType<typeof invoices>) =>
        db
          .selectFrom(query.as('q'))
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
          .then((row) => Number(row.count));
      const [rows, total, requested, reversal] = await Promise.all([
        filtered()
          .orderBy('invoice_id', input.filter === 'all' ? 'desc' : 'asc')
          .limit(PAGE_SIZE)
          .offset((input.page - 1) * PAGE_SIZE)
          .execute(),
        count(filtered()),
        count(invoices().where('status', '=', 'requested')),
        count(invoices().where('status', '=', 'issued').where('reversed_at', 'is', null).where(reversalDue())),
      ]);
      return { page_data: await views(rows.map(normalize), 'operator'), total_count: total, requested_count: requested, reversal_count: reversal };
    },

    /** 开具: the e-invoice PDF, checked by content and size, attached in the same call; the customer is told. */
    async issue(operator: Operator, input: { invoice_id: number }, source: UploadSource): Promise<AdminInvoiceView> {
      const first = await db.selectFrom('invoice').select(['status']).where('invoice_id', '=', input.invoice_id).executeTakeFirst();
      if (!first) throw new AppError(ErrorCode.INVOICE_NOT_FOUND);
      if (first.status !== 'requested') throw new AppError(ErrorCode.INVOICE_NOT_REQUESTED);
      const upload = await storedFiles.store(source, { types: ['application/pdf'], refused: () => new AppError(ErrorCode.INVOICE_FILE_NOT_PDF) });
      const at = now();
      await storedFiles.keep(upload, () =>
        db.transaction().execute(async (trx) => {
          const invoice = await requestedInvoice(trx, input.invoice_id);
          const lines = await ordersOf(trx, invoice.invoice_id);
          const money = await moneyOf(
            trx,
            lines.map((line) => line.user_order_id),
            invoice.invoice_id,
          );
          // A refund since the request may have left less than this invoice's amount.
          if (lines.some((line) => line.amount > available(money.get(line.user_order_id)!))) throw new AppError(ErrorCode.INVOICE_EXCEEDS_NOW);
          await trx
            .insertInto('invoice_file')
            .values({
              ...upload,
              invoice_id: invoice.invoice_id,
              user_order_id: lines[0]!.user_order_id,
              applicant_id: 0,
              operator_id: operator.operatorId,
              created_at: at,
            })
            .execute();
          const updated = await trx
            .updateTable('invoice')
            .set({ status: 'issued', issued_at: at, issued_by: operator.operatorId })
            .where('invoice_id', '=', invoice.invoice_id)
            .where('status', '=', 'requested')
            .executeTakeFirst();
          if (Number(updated.numUpdatedRows) !== 1) throw new AppError(ErrorCode.INVOICE_NOT_REQUESTED);
          await tell(
            trx,
            { ...invoice, first_order: lines[0]!.user_order_id },
            '电子发票已开具',
            `您申请的发票（${invoice.title}，${formatPrice(invoice.amount)}）已开具，请在“我的发票”中下载电子发票。`,
          );
        }),
      );
      deps.pokeOutbox();
      return one(input.invoice_id, 'operator');
    },

    async reject(_operator: Operator, input: { invoice_id: number; reason: string }): Promise<AdminInvoiceView> {
      const reason = normalizeInputText(input.reason);
      if (length(reason) < INVOICE_LIMITS.rejectReasonMin || length(reason) > INVOICE_LIMITS.rejectReasonMax) {
        throw new AppError(ErrorCode.INVOICE_REJECT_REASON_INVALID);
      }
      const at = now();
      await db.transaction().execute(async (trx) => {
        const invoice = await requestedInvoice(trx, input.invoice_id);
        const lines = await ordersOf(trx, invoice.invoice_id);
        const updated = await trx
          .updateTable('invoice')
          .set({ status: 'rejected', rejected_at: at, reject_reason: reason })
          .where('invoice_id', '=', invoice.invoice_id)
          .where('status', '=', 'requested')
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new AppError(ErrorCode.INVOICE_NOT_REQUESTED);
        await tell(
          trx,
          { ...invoice, first_order: lines[0]!.user_order_id },
          '发票申请未通过',
          `您申请的发票（${invoice.title}，${formatPrice(invoice.amount)}）未能开具：${reason}。可修改后重新申请。`,
        );
      });
      deps.pokeOutbox();
      return one(input.invoice_id, 'operator');
    },

    /** 已红冲: an operator records the reversal of an issued invoice whose orders were refunded after it. */
    async reversed(operator: Operator, input: { invoice_id: number }): Promise<AdminInvoiceView> {
      const view = await one(input.invoice_id, 'operator');
      if (view.reversal !== 'due') throw new AppError(ErrorCode.INVOICE_NOT_TO_REVERSE);
      const updated = await db
        .updateTable('invoice')
        .set({ reversed_at: now(), reversed_by: operator.operatorId })
        .where('invoice_id', '=', input.invoice_id)
        .where('reversed_at', 'is', null)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AppError(ErrorCode.INVOICE_NOT_TO_REVERSE);
      return one(input.invoice_id, 'operator');
    },
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
