// buildApp(config): plugins → signed /www API → React Router pages. Never
// listens: main.ts does, and tests call inject().
import { randomBytes } from 'node:crypto';
import { constants as zlibConstants } from 'node:zlib';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ServerBuild } from 'react-router';
import { REQUEST_ID_PATTERN, STORAGE_KEYS } from '../common/constants.ts';
import { ERROR_CATALOGUE, ErrorCode } from '../common/error-codes.ts';
import type { PublicConfig, WebLoadContext } from '../common/web-context.ts';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { accountOperations } from './modules/account/account.routes.ts';
import { createMailer, type Mailer } from './modules/notification/mailer.ts';
import { noticeOperations } from './modules/notification/notice.routes.ts';
import { createNoticeService, type NoticeService } from './modules/notification/notice.service.ts';
import { createOutboxWorker, installOutbox, OUTBOX_JOB, type OutboxWorker } from './modules/notification/outbox.ts';
import { createTravellerOutbox, installTravellerOutbox, type TravellerOutbox } from './modules/notification/traveller-outbox.ts';
import { createSmsProvider, installSmsReply } from './modules/notification/sms.module.ts';
import { createTravellerMessageService } from './modules/notification/traveller-message.service.ts';
import { travellerMessageOperations } from './modules/notification/traveller-message.routes.ts';
import { orderExpiryJob } from './modules/order/expiry.ts';
import { onOrderEventCommitted } from './modules/order/after-commit.ts';
import { orderOperations } from './modules/order/order.routes.ts';
import { createMaterialModule } from './modules/material/material.routes.ts';
import { interviewOperations } from './modules/interview/interview.routes.ts';
import { createInterviewService, type InterviewService } from './modules/interview/interview.service.ts';
import { interviewNoticeOperations } from './modules/interview/interview-notice.routes.ts';
import { createInterviewNoticeService, type InterviewNoticeService } from './modules/interview/interview-notice.service.ts';
import { addressOperations } from './modules/address/address.routes.ts';
import { type AddressService, createAddressService } from './modules/address/address.service.ts';
import { insuranceOperations } from './modules/insurance/insurance.routes.ts';
import { createInsuranceService, type InsuranceService } from './modules/insurance/insurance.service.ts';
import type { MaterialService } from './modules/material/material.service.ts';
import { confirmOperations } from './modules/order/confirm.routes.ts';
import { createOrderConfirm } from './modules/order/confirm.ts';
import { createOrderService, type OrderService } from './modules/order/order.service.ts';
import { createCustomerOrderView, type CustomerOrderView } from './modules/order-view/customer-view.ts';
import { createOperatorWorkbench, type OperatorWorkbench } from './modules/order-view/workbench.ts';
import { workbenchOperations } from './modules/order-view/workbench.routes.ts';
import { missingMaterials } from './modules/material/material-progress.ts';
import { installPayments } from './modules/payment/payment.module.ts';
import { installCourier } from './modules/courier/courier.module.ts';
import { mailOperations } from './modules/mail/mail.routes.ts';
import { createMailService, type MailService } from './modules/mail/mail.service.ts';
import { shipBackOperations } from './modules/ship-back/ship-back.routes.ts';
import { createShipBackService, type ShipBackService } from './modules/ship-back/ship-back.service.ts';
import { createRetentionJob } from './modules/retention/retention.job.ts';
import { createTravellerDocumentRetention } from './modules/retention/traveller-documents.ts';
import { createTravellerModule } from './modules/traveller/traveller.routes.ts';
import type { TravellerService } from './modules/traveller/traveller.service.ts';
import { createFileStorage } from './modules/stored-file/open-storage.ts';
import type { FileRouteAuth } from './modules/stored-file/serve.ts';
import { locateProvince } from './modules/system/ip-location.ts';
import { createRateLimiter } from './platform/rate-limit.ts';
import { catalogueOperations, materialEmailOperation } from './modules/catalogue/catalogue.routes.ts';
import { type CatalogueService, createCatalogueService } from './modules/catalogue/catalogue.service.ts';
import { type AccountService, createAccountService } from './modules/account/account.service.ts';
import type { AuthenticatedAccount } from './modules/account/account.types.ts';
import { teamOperations } from './modules/account/team.routes.ts';
import { createTeamService, type TeamService } from './modules/account/team.service.ts';
import { callAccess, refusalMessage, roleMay } from '../common/team.ts';
import { staffMay } from '../common/staff-access.ts';
import { provinceList } from './modules/system/address-library.ts';
import { registerAddressLibraryFile, systemOperations } from './modules/system/system.routes.ts';
import { installErrorHandling, installJsonParser } from './platform/error-handler.ts';
import { installHealth } from './platform/health.ts';
import { installMetrics } from './platform/metrics.ts';
import { createJobRunner, type JobRunner } from './platform/jobs.ts';
import { createReminders } from './modules/reminder/reminders.ts';
import { AppError } from './platform/errors.ts';
import { isStaffAuth, type OperationAuth, registerOperation, requireStaffAccess } from './platform/operation.ts';
import { operatorOperations } from './modules/operator/operator.routes.ts';
import { catalogueAdminOperations, catalogueWorkbookOperations, catalogueWorkbookUploadRoutes } from './modules/catalogue-admin/catalogue-admin.routes.ts';
import { createCatalogueWorkbook } from './modules/catalogue-admin/catalogue-workbook.ts';
import { type CatalogueAdminService, createCatalogueAdminService } from './modules/catalogue-admin/catalogue-admin.service.ts';
import { slotAdminOperations } from './modules/catalogue-admin/slot-admin.routes.ts';
import { createSlotAdminService, type SlotAdminService } from './modules/catalogue-admin/slot-admin.service.ts';
import { directoryOf } from './modules/operator/directory.ts';
import { createReviewModule, type ReviewModule } from './modules/review/review.module.ts';
import { createPassportScanModule } from './modules/passport-scan/passport-scan.module.ts';
import { createPageCheckModule } from './modules/page-check/page-check.module.ts';
import { createResultModule } from './modules/result/result.module.ts';
import { createInvoiceModule } from './modules/invoice/invoice.module.ts';
import type { InvoiceService } from './modules/invoice/invoice.service.ts';
import { createReportService, EXPORTS_PER_MINUTE, registerExportRoutes, type ReportService, reportOperations } from './modules/order-report/report.module.ts';
import type { PageCheckService } from './modules/page-check/page-check.service.ts';
import { createPriceDifferenceService } from './modules/price-difference/price-difference.service.ts';
import { priceDifferenceOperations } from './modules/price-difference/price-difference.routes.ts';
import { installRefunds } from './modules/refund/refund.module.ts';
import { installReconciliation } from './modules/reconciliation/reconciliation.module.ts';
import type { ReconciliationService } from './modules/reconciliation/reconciliation.service.ts';
import type { RefundService } from './modules/refund/refund.service.ts';
import { createOperatorService, type OperatorService } from './modules/operator/operator.service.ts';
import type { AuthenticatedOperator } from './modules/operator/operator.types.ts';
import { customer } from './platform/principal.ts';
import { createDatabaseReplayStore, createLogReplayStore, createRedisReplayStore, createSqliteReplayStore, replayDirOf } from './platform/replay-store.ts';
import { createSignatureCheck } from './platform/signature.ts';
import { cookieValue } from './web/cookies.ts';
import { customerReads } from './web/customer-reads.ts';
import { operatorReads } from './web/operator-reads.ts';
import { createPageCache } from './web/page-cache.ts';
import { registerPages } from './web/pages.ts';
import { cspNonce, installSecurityHeaders } from './web/security-headers.ts';

export interface AppOptions {
  config: AppConfig;
  database: DatabaseHandle;
  /** The React Router server build; API-only when absent (API tests). */
  pages?: { build: ServerBuild; clientDir: string };
  now?: () => number;
  /** Defaults to SMTP_URL, or the outbox folder without it. */
  mailer?: Mailer;
}

export interface Services {
  account: AccountService;
  catalogue: CatalogueService;
  /** The order's writes (order/) with the customer's reads of it (order-view/). */
  order: OrderService & CustomerOrderView;
  material: MaterialService;
  interview: InterviewService;
  insurance: InsuranceService;
  address: AddressService;
  operator: OperatorService;
  notice: NoticeService;
  review: ReviewModule;
  /** The operator's workbench in one read, with every panel (order-view, decision 0035). */
  workbench: OperatorWorkbench;
  pageCheck: PageCheckService;
  interviewNotice: InterviewNoticeService;
  /** Mailing paper materials (issue 10); set once the courier module is installed. */
  mail: MailService;
  /** Ship back and completion (issue 11); set once the courier module is installed. */
  shipBack: ShipBackService;
  /** Refunds (issue 11): the 工作台's failed-refund count; set once the refund module is installed. */
  refunds: RefundService;
  /** The daily reconciliation (issue 25): the back office's 对账差异 page. */
  reconciliation: ReconciliationService;
  /** 产品管理 (issue 26): product drafts, publishing and its audit. */
  catalogueAdmin: CatalogueAdminService;
  /** 产品管理 · 面试时段 (issue 26): slots, closures and their audit. */
  slotAdmin: SlotAdminService;
  /** 成员管理 (issue 29): the enterprise's colleagues and their invitations. */
  team: TeamService;
  /** Invoices (issue 29). */
  invoices: InvoiceService;
  /** 出行团组 and the order export (issue 29). */
  reports: ReportService;
  /** 常用出行人 (issue 28 part 3): saved travellers, their documents, offered on the upload step. */
  traveller: TravellerService;
}

declare module 'fastify' {
  interface FastifyRequest {
    account?: AuthenticatedAccount;
    /** The back office's caller (auth 'operator' / 'supervisor'). */
    operator?: AuthenticatedOperator;
  }
  interface FastifyInstance {
    /** The notices' e-mail outbox worker (tests drain it by hand). */
    noticeOutbox: OutboxWorker;
    /** The travellers' SMS and e-mail outbox (tests drain it by hand). */
    travellerOutbox: TravellerOutbox;
    /** The background jobs' runner (server/platform/jobs.ts): tests poke it and wait for it. */
    jobs: JobRunner;
    /** From now on /readyz answers 503 {"status":"draining"}; every other route keeps answering (server/platform/health.ts). */
    startDraining(): void;
  }
  interface FastifyContextConfig {
    auth?: OperationAuth;
  }
}

export async function buildApp({
  config,
  database,
  pages,
  now = Date.now,
  mailer = createMailer(config),
}: AppOptions): Promise<{ app: FastifyInstance; services: Services }> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers["x-token"]', 'req.headers.cookie', 'body.password'],
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    requestIdHeader: false,
    genReqId: (raw) => {
      const given = raw.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomBytes(16).toString('hex');
    },
  });

  // Stored files (materials, page-check pages, visa results): one storage, on disk or S3 (server/modules/stored-file/).
  // Every file encrypted at rest (decision 0043); without FILE_ENCRYPTION_KEY (refused in prod) under the published development key.
  const storage = createFileStorage(config);
  if (config.fileKeyring.development) {
    app.log.warn('FILE_ENCRYPTION_KEY is not set: stored files are encrypted under the published development key (dev, demo and test only)');
  }
  // Uploaded materials: JSON calls and the multipart upload in /www, stored files under /files/material/.
  const materials = createMaterialModule({ db: database.db, config, now, log: app.log, storage });
  // Saved travellers (常用出行人): their documents stored like materials and reused by reference in orders.
  const travellers = createTravellerModule({ db: database.db, config, now, log: app.log, storage, material: materials.service });

  const operators = createOperatorService(
    database.db,
    { idleMs: config.OPERATOR_SESSION_IDLE_MINUTES * 60_000, absoluteMs: config.OPERATOR_SESSION_ABSOLUTE_HOURS * 3_600_000 },
    now,
  );
  // The page check (核页) and the operator's submit: pages stored like the customers' files.
  const pageCheck = createPageCheckModule({ db: database.db, now, storage, maxBytes: config.UPLOAD_MAX_BYTES, log: app.log });
  // The services the signed operations call, and the login-only pages too (in process, server/web/customer-reads.ts).
  const base: Omit<Services, 'mail' | 'shipBack' | 'refunds' | 'reconciliation' | 'workbench' | 'invoices' | 'reports'> = {
    account: createAccountService(database.db, { idleMs: config.SESSION_IDLE_MINUTES * 60_000, absoluteMs: config.SESSION_ABSOLUTE_HOURS * 3_600_000 }, now),
    catalogue: createCatalogueService(database.db),
    order: { ...createOrderService(database.db, { now }), ...createCustomerOrderView(database.db, { now }) },
    material: materials.service,
    interview: createInterviewService(database.db, { now }),
    insurance: createInsuranceService(database.db, { now }),
    address: createAddressService(database.db, { now }),
    notice: createNoticeService(database.db, { now }),
    operator: operators,
    // The back office's queue and review, over the operator accounts.
    review: createReviewModule(database.db, {
      now,
      material: materials.service,
      operators: directoryOf(() => operators.list()),
      courierAttentionAfterMs: config.COURIER_ATTENTION_DAYS * 86_400_000,
    }),
    pageCheck: pageCheck.service,
    // The interview notice and date changes (issue 10).
    interviewNotice: createInterviewNoticeService(database.db, { now }),
    catalogueAdmin: createCatalogueAdminService(database.db, { now }),
    slotAdmin: createSlotAdminService(database.db, { now }),
    // Invitation and reset e-mails go through the notices' outbox, run right after their commit.
    team: createTeamService(database.db, { now, siteUrl: config.PUBLIC_SITE_URL, afterMailQueued: () => jobs.poke(OUTBOX_JOB) }),
    traveller: travellers.service,
  };

  // API answers, the address library and static files; pages compress themselves.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  installErrorHandling(app);
  installJsonParser(app);
  installSecurityHeaders(app, { appEnv: config.APP_ENV, analyticsScriptUrl: config.ANALYTICS_SCRIPT_URL ?? null });
  // GET /metrics and the HTTP metrics' hook: before the routes it measures.
  const metrics = installMetrics(app, { database, now, token: config.METRICS_TOKEN });
  // Every background job runs on this runner (decision 0034): modules register theirs below; it starts
  // once the app is ready and stops on close, waiting for the runs under way (graceful stop, main.ts).
  const jobs = createJobRunner({ log: app.log, registers: [metrics.registry] });
  app.decorate('jobs', jobs);
  app.addHook('onReady', async () => jobs.start());
  // zod validates payloads (with Chinese messages); the JSON schemas on the
  // routes are there for the API reference only.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: '易签通 API',
        version: '1.0.0',
        description: apiDescription(),
      },
      components: {
        securitySchemes: {
          signature: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Basic + Base64(HMAC-SHA256)，见上文' },
          token: { type: 'apiKey', in: 'header', name: 'X-Token', description: '登录令牌' },
        },
      },
    },
  });
  // The reference is public in development; a production site shows it only when asked to (API_DOCS=1).
  if (config.apiDocs) {
    await app.register(fastifySwaggerUi, { routePrefix: '/docs/api' });
    app.get('/docs/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  }

  const rateLimiter = createRateLimiter(database.db);
  // Visa results per applicant (issue 11): files stored like the customers' uploads; the visa infos e-mail throttled like the checklist's.
  const results = createResultModule({
    db: database.db,
    now,
    storage,
    maxBytes: config.UPLOAD_MAX_BYTES,
    log: app.log,
    mailer,
    rateLimiter,
    siteUrl: config.PUBLIC_SITE_URL,
  });
  // Invoices (issue 29): the e-invoice PDFs stored like every upload; the customer told through the notices' outbox.
  const invoices = createInvoiceModule({
    db: database.db,
    now,
    storage,
    maxBytes: config.UPLOAD_MAX_BYTES,
    log: app.log,
    pokeOutbox: () => jobs.poke(OUTBOX_JOB),
  });
  // Reports (issue 29): 出行团组 and the order export's download.
  const reports = createReportService(database.db);
  const skewMs = config.SIGNATURE_MAX_SKEW_SECONDS * 1000;
  // An id must be remembered as long as its X-Date is accepted: twice the skew (decision 0016).
  const replayStore = config.REDIS_URL
    ? await createRedisReplayStore(config.REDIS_URL, 2 * skewMs)
    : config.database.kind === 'sqlite'
      ? config.database.file === ':memory:'
        ? createSqliteReplayStore(':memory:')
        : createLogReplayStore(replayDirOf(config.database.file), { windowMs: 2 * skewMs })
      : createDatabaseReplayStore(database.db);
  // GET /healthz, GET /readyz (database, migrations, uploads, Redis on the replay store's connection) and app.startDraining().
  installHealth(app, {
    database,
    uploads: config.S3_BUCKET ? { kind: 's3' } : { kind: 'local', dir: config.UPLOAD_DIR },
    redisPing: replayStore.ping ? () => replayStore.ping!() : undefined,
  });
  const verifySignature = createSignatureCheck({ clients: config.API_CLIENTS, maxSkewMs: skewMs, replayStore, now });
  // Twice the window: an id must be remembered as long as its X-Date is accepted.
  jobs.register({ name: 'replay-purge', intervalMs: 60_000, run: () => replayStore.purgeBefore(now() - 2 * skewMs) });
  // The longest rate-limit window in use is an hour.
  jobs.register({ name: 'rate-limit-purge', intervalMs: 60_000, run: () => rateLimiter.purgeStartedBefore(now() - 2 * 3_600_000) });
  // Unpaid orders expire after 24 h; safe with several instances (conditional updates).
  jobs.register(orderExpiryJob(database.db, now, app.log));
  // Notices' e-mails: sent after the commit that queued them (an after-commit hook), swept for the rest.
  const noticeOutbox = createOutboxWorker({
    db: database.db,
    mailer,
    now,
    siteUrl: config.PUBLIC_SITE_URL,
    log: app.log,
    sweepMs: config.NOTICE_OUTBOX_SWEEP_SECONDS * 1000,
  });
  app.decorate('noticeOutbox', noticeOutbox);
  // The lifecycle runs the outbox after each commit that queued notices (the notification module does not import order/).
  onOrderEventCommitted(database.db, installOutbox(jobs, noticeOutbox, app.log));
  // Issue 29: the travellers' own SMS and e-mails, sent after the commit of the events that concern them.
  const travellerOutbox = createTravellerOutbox({
    db: database.db,
    sms: createSmsProvider(config, now),
    mailer,
    now,
    log: app.log,
    ratePerHour: config.SMS_RATE_PER_HOUR,
    ratePerDay: config.SMS_RATE_PER_DAY,
    sweepMs: config.NOTICE_OUTBOX_SWEEP_SECONDS * 1000,
  });
  app.decorate('travellerOutbox', travellerOutbox);
  onOrderEventCommitted(database.db, installTravellerOutbox(jobs, travellerOutbox, app.log));
  // A traveller's reply TD (退订) to our SMS, pushed by the provider: no SMS to that number from then on.
  installSmsReply(app, { db: database.db, now, token: config.SMS_REPLY_TOKEN });
  app.addHook('onClose', async () => {
    // No job starts from here on; the runs under way finish first (graceful stop, server/main.ts).
    await jobs.stop();
    mailer.close();
    await replayStore.close();
  });

  // Payments: the provider's pages and notification endpoint live outside the signed /www scope.
  const payments = await installPayments(app, { config, db: database.db, now, jobs });
  // Refunds: the provider's refund notification endpoint, and the worker that sends refunds after their commit.
  const refunds = await installRefunds(app, {
    db: database.db,
    now,
    providers: payments.providers,
    operators: directoryOf(() => operators.list()),
    jobs,
  });
  // The daily reconciliation of every configured provider's bill with our payments and refunds (decision 0038).
  const reconciliation = installReconciliation({
    db: database.db,
    now,
    log: app.log,
    jobs,
    providers: () => payments.providers.all(),
    operators: directoryOf(() => operators.list()),
    registry: metrics.registry,
  });
  // Couriers: the provider's route push endpoint lives outside /www too; the order side uses app.courier.service.
  const courier = await installCourier(app, { config, db: database.db, now, jobs });
  const priceDifferences = createPriceDifferenceService(database.db, { now, operators: directoryOf(() => operators.list()) });
  // The applicants' own SMS and e-mails, as the back office lists them (issue 29).
  const travellerMessages = createTravellerMessageService(database.db);
  // Mailing paper materials: the order side of the courier module.
  const services: Services = {
    ...base,
    mail: createMailService(database.db, { now, courier: courier.service, address: base.address }),
    shipBack: createShipBackService(database.db, { now, courier: courier.service }),
    refunds: refunds.service,
    reconciliation: reconciliation.service,
    invoices: invoices.service,
    reports,
    // The workbench's panels are read by their own services (called once `services` exists).
    workbench: createOperatorWorkbench(database.db, {
      now,
      operators: directoryOf(() => operators.list()),
      panels: {
        pageCheck: (caller, id) => services.pageCheck.operatorView(caller, id),
        mail: (caller, id) => services.mail.list(caller, id),
        shipBack: (caller, id) => services.shipBack.adminGet(caller, id),
        interview: (caller, id) => services.interviewNotice.panel(caller, id),
        priceDifferences: (caller, id) => priceDifferences.list(caller, id),
        refunds: (caller, id) => services.refunds.list(caller, id),
        results: (caller, id) => results.service.operatorView(caller, id),
        travellerMessages: (caller, id) => travellerMessages.list(caller, id),
      },
    }),
  };
  // The return parcel delivered → the order finishes (issue 11).
  courier.service.onShipmentStatus(services.shipBack.onShipmentStatus);
  // Retention of travellers' scans (issue 11): every instance runs it; each order is claimed first.
  const retention = createRetentionJob(database.db, { storage, now, retentionDays: config.RETENTION_DAYS, log: app.log });
  jobs.register(retention.job(config.RETENTION_INTERVAL_MINUTES * 60_000));
  // The saved travellers' documents: deleted RETENTION_DAYS after they stopped being usable (expired, photo too old).
  const travellerRetention = createTravellerDocumentRetention(database.db, { storage, now, retentionDays: config.RETENTION_DAYS, log: app.log });
  jobs.register(travellerRetention.job(config.RETENTION_INTERVAL_MINUTES * 60_000));
  // Reminders (issue 29 part 5, decision 0047): the expiry warning, the interview tomorrow, the departure at risk.
  const reminders = createReminders(database.db, { now, pokeOutbox: () => jobs.poke(OUTBOX_JOB), log: app.log });
  for (const job of reminders.jobs()) jobs.register(job);

  // Passport photos read into the order form (issue 28): local OCR, nothing stored.
  const passportScan = createPassportScanModule({ now, log: app.log });
  app.addHook('onClose', () => passportScan.service.close());
  // The catalogue workbook in the back office (issue 26).
  const catalogueWorkbook = createCatalogueWorkbook(database.db, { now });
  await app.register(async (api) => {
    api.addHook('onRequest', async (request, reply) => {
      // Answers for a caller, never kept by a browser or a proxy.
      reply.header('cache-control', 'no-store');
      await verifySignature(request);
      const auth = request.routeOptions.config.auth;
      const token = typeof request.headers['x-token'] === 'string' ? request.headers['x-token'] : undefined;
      // Customer and operator sessions are separate tables: a token is looked up only among its kind's.
      if (auth === 'customer') {
        const account = await services.account.authenticate(token);
        if (!account) throw new AppError(ErrorCode.NOT_LOGGED_IN);
        // The colleague's role may make this call (common/team.ts CUSTOMER_CALL_ACCESS), or 2501 before anything is read.
        const access = callAccess(request.routeOptions.url ?? request.url);
        if (!roleMay(account.role, access)) throw new AppError(ErrorCode.TEAM_ROLE_FORBIDDEN, refusalMessage(account.role, access));
        request.account = account;
      } else if (isStaffAuth(auth)) {
        // The back office's pages hold no token (HttpOnly admin_token, SameSite=Strict: decision 0032);
        // an API client that kept the cookie's value may send it as X-Token instead.
        const operator = await services.operator.authenticate(token ?? cookieValue(request, STORAGE_KEYS.adminTokenCookie));
        if (!operator) throw new AppError(ErrorCode.NOT_LOGGED_IN);
        // The role may make this call (common/staff-access.ts: a 产品编辑 only 产品管理's), or 2003 before anything is read.
        requireStaffAccess(operator.role, auth);
        request.operator = operator;
      }
    });
    const operations = [
      ...accountOperations(services.account, config),
      ...teamOperations(services.team),
      ...catalogueOperations(services.catalogue),
      materialEmailOperation({ service: services.catalogue, mailer, rateLimiter, siteUrl: config.PUBLIC_SITE_URL, now }),
      ...systemOperations({ miniProgramLinkBase: config.MINI_PROGRAM_LINK_BASE, rateLimiter, now }),
      ...orderOperations(services.order),
      ...materials.operations,
      ...travellers.operations,
      ...payments.operations,
      ...interviewOperations(services.interview),
      ...addressOperations(services.address),
      ...insuranceOperations(services.insurance),
      // The confirm step reads the insurance plans and the materials' progress through what it is handed (no import back into order/).
      ...confirmOperations(createOrderConfirm(database.db, { now, plans: services.insurance, missingMaterials })),
      // The back office (/admin-api/…).
      ...operatorOperations(services.operator),
      ...noticeOperations(services.notice),
      ...travellerMessageOperations(travellerMessages),
      ...services.review.operations,
      ...workbenchOperations(services.workbench),
      ...pageCheck.operations,
      ...priceDifferenceOperations(priceDifferences),
      ...interviewNoticeOperations(services.interviewNotice),
      ...mailOperations(services.mail),
      ...results.operations,
      ...shipBackOperations(services.shipBack),
      ...refunds.operations,
      ...reconciliation.operations,
      ...catalogueAdminOperations(services.catalogueAdmin),
      ...slotAdminOperations(services.slotAdmin),
      ...catalogueWorkbookOperations(catalogueWorkbook),
      ...reportOperations(reports),
      ...invoices.operations,
    ];
    for (const operation of operations) {
      registerOperation(api, operation);
    }
    await api.register(materials.uploadRoutes);
    await api.register(travellers.uploadRoutes);
    await api.register(pageCheck.uploadRoutes);
    await api.register(results.uploadRoutes);
    await api.register(invoices.uploadRoutes);
    for (const routes of catalogueWorkbookUploadRoutes(catalogueWorkbook)) await api.register(routes);
    await api.register(passportScan.uploadRoutes);
  });

  registerAddressLibraryFile(app);
  // The stored files' routes: /files/… for the customer's session, /admin-files/… for an operator's.
  const fileAuth: FileRouteAuth = {
    customer: (token) => services.account.authenticate(token),
    // The orders' files are order work: a 产品编辑's session opens none of them (404, as for no session).
    operator: async (token) => {
      const found = await services.operator.authenticate(token);
      return found && staffMay(found.role, 'operator') ? found : null;
    },
  };
  for (const files of [materials, pageCheck, results, invoices, travellers]) files.registerFileRoutes(app, fileAuth);
  registerExportRoutes(app, reports, {
    authenticate: (token) => services.account.authenticate(token),
    now,
    allow: (accountId) => rateLimiter.hit(`order_export:${accountId}`, EXPORTS_PER_MINUTE, 60_000, now()),
  });

  if (pages) {
    // Country flags from the flag-icons package (SVG, 4x3 and 1x1).
    await app.register(fastifyStatic, {
      root: join(dirname(createRequire(import.meta.url).resolve('flag-icons/package.json')), 'flags'),
      prefix: '/static/flags/',
      decorateReply: false,
      index: false,
      maxAge: '7d',
    });
    await app.register(fastifyStatic, {
      root: resolve(pages.clientDir),
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      // Build files under /assets/ have the hash of their content in their name:
      // a year, never revalidated. Everything else (favicon, samples) is
      // revalidated on every use, as before. send's own header is off, or it
      // would overwrite this one (it did: max-age=0 on every asset).
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=0');
      },
    });
    const publicConfig: PublicConfig = {
      appEnv: config.APP_ENV,
      apiBaseUrl: '',
      platform: config.webClient.platform,
      accessKey: config.webClient.accessKey,
      secret: config.webClient.secret,
      analyticsScriptUrl: config.ANALYTICS_SCRIPT_URL ?? null,
    };
    // Guest product pages are kept while their catalogue version is current.
    const pageCache = createPageCache(
      [{ pattern: /^\/visa\/product\/([1-9]\d{0,9})$/, version: (match) => services.catalogue.productVersion(Number(match[1])) }],
      { maxEntries: 2_000, maxBytes: 256 * 1024 * 1024 },
    );
    registerPages(app, pages.build, pageCache, (request): WebLoadContext => {
      // The page request's session, authenticated once however many loaders ask.
      let session: Promise<AuthenticatedAccount | null> | undefined;
      const account = () => (session ??= services.account.authenticate(cookieValue(request, STORAGE_KEYS.tokenCookie)));
      let user: ReturnType<WebLoadContext['currentUser']> | undefined;
      // The back office's session: the admin_token cookie, looked up among operator sessions only.
      let staffSession: Promise<AuthenticatedOperator | null> | undefined;
      const staff = () => (staffSession ??= services.operator.authenticate(cookieValue(request, STORAGE_KEYS.adminTokenCookie)));
      let me: ReturnType<WebLoadContext['currentOperator']> | undefined;
      const currentOperator = () =>
        (me ??= staff().then((found) => (found ? services.operator.me({ kind: 'operator', operatorId: found.operatorId, role: found.role }) : null)));
      return {
        publicConfig,
        catalogue: services.catalogue,
        provinces: provinceList,
        visitorProvince: () => {
          const found = locateProvince(request.ip);
          return found ? { province_code: found.province_code, name: found.province_name } : null;
        },
        cspNonce: cspNonce(request),
        logError: (error) => request.log.error({ err: error }, 'page error'),
        currentUser: () => (user ??= account().then((found) => (found ? services.account.userInfo(found.accountId) : null))),
        customerReads: async () => {
          const found = await account();
          return found ? customerReads(services, customer(found.accountId, found.enterpriseId)) : null;
        },
        currentOperator,
        operatorReads: async () => {
          const found = await staff();
          const info = found ? await currentOperator() : null;
          return found && info ? operatorReads(services, { kind: 'operator', operatorId: found.operatorId, role: found.role }, info) : null;
        },
      };
    });
  }

  return { app, services };
}

function apiDescription(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(([ret, entry]) => `| ${ret} | ${entry.http} | ${entry.msg} | ${entry.meaning} |`);
  return [
    '所有业务接口均为 `POST {baseUrl}/www/...`，请求体为 JSON，响应为信封 `{ret, msg, body}`，`ret` 为 0 表示成功。',
    '',
    '**签名请求头**（每个请求必带）：`X-Version: 1.0.0`；`X-Date`（GMT 时间字符串，与服务器时间相差不得超过 15 分钟）；',
    '`X-Request-Id`（32 位小写字母和数字，有效期内不可重复）；`platform`（客户端平台，Web 为 4）；登录后带 `X-Token`；',
    '`Authorization: Basic ` + Base64(HMAC-SHA256(secret, accessKey + "\\n" + X-Date + "\\n" + X-Version + "\\n" + X-Request-Id))。',
    '',
    '业务和参数错误返回 HTTP 200 与非 0 的 `ret`；未登录或登录过期返回 HTTP 401；服务器内部错误返回 HTTP 500 与通用提示。',
    '',
    '**错误码**',
    '',
    '| ret | HTTP | msg | 含义 |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
