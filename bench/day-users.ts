// The virtual users of `npm run bench:day` (bench/day.ts): visitors browsing
// the catalogue, customers ordering, uploading and following their orders,
// operators working the queue and reviewing files. Each is a loop of what a
// person does in the browser, with think times between the steps, over the
// client of bench/day-client.ts. What a page reads on the server is a GET of
// the page (its first view, as HTML) or of its `.data` (React Router's client
// navigation and revalidation); what a page sends is the signed call it sends.
// Where the bench needs what a page read (ids, versions), it asks the signed
// call that the page's loader answers from in process (material_list,
// queue, workbench) instead of decoding the page's data.
import { ErrorCode } from '../common/error-codes.ts';
import { type Client, multipart, type Response } from './day-client.ts';

export interface World {
  continents: number[];
  /** Countries with their visible products, most visited first. */
  countries: Array<{ id: number; products: number[] }>;
  /** Products a customer can order on the web (listed, offline, no interview), most ordered first. */
  orderable: Array<{ id: number; countryId: number }>;
  provinces: string[];
  files: { scan: Buffer; photo: Buffer; pdf: Buffer; png: Buffer };
}

export interface Customer {
  account: string;
  token: string;
  addressId: number;
}

export interface Operator {
  account: string;
  token: string;
  role: 'operator' | 'supervisor';
}

export interface Life {
  /** True once the run is over: users finish the step they are in and stop. */
  stopping: boolean;
  /** Scales every think time (BENCH_DAY_THINK, 1 = the times written here). */
  thinkScale: number;
  /** Orders a customer gave up on, paid, etc., for the report. */
  tally: Record<string, number>;
}

const random = Math.random;
const between = (min: number, max: number) => min + random() * (max - min);
const chance = (p: number) => random() < p;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Popular first: rank r is chosen with weight 1 / (r + 1)^0.9 (a few destinations draw most visits). */
function pickPopular<T>(items: readonly T[]): T {
  let total = 0;
  for (let r = 0; r < items.length; r += 1) total += 1 / (r + 1) ** 0.9;
  let x = random() * total;
  for (let r = 0; r < items.length; r += 1) {
    x -= 1 / (r + 1) ** 0.9;
    if (x <= 0) return items[r]!;
  }
  return items[items.length - 1]!;
}

function count(life: Life, what: string) {
  life.tally[what] = (life.tally[what] ?? 0) + 1;
}

/** A pause of a person reading or typing; ends early when the run stops. */
export function think(life: Life, minMs: number, maxMs: number): Promise<void> {
  const ms = between(minMs, maxMs) * life.thinkScale;
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = () => (life.stopping || Date.now() - started >= ms ? resolve() : setTimeout(tick, Math.min(250, ms - (Date.now() - started))));
    tick();
  });
}

const dataPath = (path: string) => {
  const [pathname, query] = path.split('?');
  return `${pathname === '/' ? '/_root' : pathname}.data${query ? `?${query}` : ''}`;
};

// ── Static assets: what a browser with an empty cache downloads with its first page ──

/** The scripts and styles each kind of page needs, its static imports followed (learnt once at set-up). */
const pageAssets = new Map<Place['kind'], string[]>();

const importsOf = (js: string) => [...js.matchAll(/(?:from|import)\s*"\.\/([A-Za-z0-9_.-]+\.js)"/g)].map((m) => `/assets/${m[1]}`);

/**
 * Learns, once before the run, what a browser with an empty cache downloads
 * with each kind of page: the assets its HTML names and, for scripts, their
 * static imports, recursively (asked without compression so they can be
 * read). Visitors then download those lists as browsers do, compressed.
 */
export async function learnAssets(client: Client, world: World): Promise<number> {
  const country = world.countries[0]!;
  const examples: Array<[Place['kind'], string]> = [
    ['home', '/'],
    ['continent', `/visa/continent?continent_id=${world.continents[0]}`],
    ['country', `/visa/country/${country.id}`],
    ['product', `/visa/product/${country.products[0]}`],
  ];
  const imports = new Map<string, string[]>();
  for (const [kind, path] of examples) {
    const page = await client.get('visitor pages (HTML)', path, { accept: 'text/html', 'accept-encoding': 'identity' });
    if (!page) continue;
    const found = new Set<string>();
    const queue = [...new Set(page.body.toString().match(/\/assets\/[A-Za-z0-9_.-]+\.(?:js|css)/g) ?? [])];
    for (let asset = queue.shift(); asset; asset = queue.shift()) {
      if (found.has(asset)) continue;
      found.add(asset);
      if (!asset.endsWith('.js')) continue;
      if (!imports.has(asset)) {
        const response = await client.get('static assets', asset, { accept: '*/*', 'accept-encoding': 'identity' });
        imports.set(asset, response ? importsOf(response.body.toString()) : []);
      }
      queue.push(...imports.get(asset)!);
    }
    pageAssets.set(kind, [...found]);
  }
  return new Set([...pageAssets.values()].flat()).size;
}

/** What the browser does not have yet of a page's assets, six at a time (a browser's connections to a host). */
async function loadAssets(client: Client, kind: Place['kind'], cache: Set<string>): Promise<void> {
  const queue = (pageAssets.get(kind) ?? []).filter((asset) => !cache.has(asset));
  for (const asset of queue) cache.add(asset);
  const worker = async () => {
    for (let asset = queue.shift(); asset; asset = queue.shift()) await client.get('static assets', asset, { accept: '*/*' });
  };
  await Promise.all(Array.from({ length: 6 }, worker));
}

// ── Visitors ──────────────────────────────────────────────────────────────

/**
 * One visitor session after another. A session lands on the home page (35 %),
 * a continent page (15 %), a country page (20 %) or a product page (30 %, from
 * a search engine) as full HTML — with its scripts and styles when the
 * browser's cache is empty (60 % of sessions: new visitors) — then follows
 * 2–7 links by client navigation (.data) with 1.5–4 s of reading between:
 * home → continent or country → product → another product or a reviews page.
 * One session in five is the mobile app instead: the same walk over the
 * signed catalogue calls (visa_continent_list, visa_country_get,
 * visa_product_list, visa_product_detail_get, visa_product_review_list).
 */
export async function visitor(client: Client, world: World, life: Life): Promise<void> {
  while (!life.stopping) {
    if (chance(0.2)) await appSession(client, world, life);
    else await webSession(client, world, life);
    count(life, 'visitor sessions');
    await think(life, 1_000, 3_000); // the next visitor arrives
  }
}

type Place =
  | { kind: 'home' }
  | { kind: 'continent'; id: number }
  | { kind: 'country'; id: number; province?: string }
  | { kind: 'product'; id: number; countryId: number };

function pathOf(place: Place): string {
  switch (place.kind) {
    case 'home':
      return '/';
    case 'continent':
      return `/visa/continent?continent_id=${place.id}`;
    case 'country':
      return `/visa/country/${place.id}${place.province ? `?province_code=${place.province}` : ''}`;
    case 'product':
      return `/visa/product/${place.id}`;
  }
}

function landing(world: World): Place {
  const x = random();
  if (x < 0.35) return { kind: 'home' };
  if (x < 0.5) return { kind: 'continent', id: pick(world.continents) };
  const country = pickPopular(world.countries);
  if (x < 0.7) return { kind: 'country', id: country.id };
  return { kind: 'product', id: pickPopular(country.products), countryId: country.id };
}

function nextPlace(world: World, from: Place): Place | null {
  const country = pickPopular(world.countries);
  switch (from.kind) {
    case 'home':
      return chance(0.35) ? { kind: 'continent', id: pick(world.continents) } : { kind: 'country', id: country.id };
    case 'continent':
      return { kind: 'country', id: country.id };
    case 'country': {
      const here = world.countries.find((c) => c.id === from.id) ?? country;
      if (chance(0.15) && !from.province) return { kind: 'country', id: from.id, province: pick(world.provinces) };
      return { kind: 'product', id: pickPopular(here.products), countryId: here.id };
    }
    case 'product': {
      const here = world.countries.find((c) => c.id === from.countryId) ?? country;
      if (chance(0.4)) return { kind: 'product', id: pick(here.products), countryId: here.id };
      if (chance(0.5)) return { kind: 'country', id: here.id };
      return null;
    }
  }
}

async function webSession(client: Client, world: World, life: Life): Promise<void> {
  const cache = new Set<string>();
  const emptyCache = chance(0.6);
  let place: Place | null = landing(world);
  const page = await client.get('visitor pages (HTML)', pathOf(place), { accept: 'text/html' });
  if (page && emptyCache) await loadAssets(client, place.kind, cache);
  const steps = 2 + Math.floor(random() * 6);
  for (let step = 0; step < steps && !life.stopping; step += 1) {
    await think(life, 1_500, 4_000);
    if (place.kind === 'product' && chance(0.3)) {
      // 查看更多评价: the product page asks for the next page of reviews.
      await client.call('catalogue API', '/www/visa_product_review_list', { visa_product_id: place.id, page: 2 });
      await think(life, 1_000, 2_500);
    }
    place = nextPlace(world, place);
    if (!place) break;
    await client.get('visitor navigation (.data)', dataPath(pathOf(place)), { accept: '*/*' });
  }
}

async function appSession(client: Client, world: World, life: Life): Promise<void> {
  await client.call('catalogue API', '/www/sys_config_get', {});
  await client.call('catalogue API', '/www/visa_continent_list', {});
  const steps = 2 + Math.floor(random() * 5);
  for (let step = 0; step < steps && !life.stopping; step += 1) {
    await think(life, 1_500, 4_000);
    const country = pickPopular(world.countries);
    if (chance(0.4)) {
      await client.call('catalogue API', '/www/visa_country_get', { visa_country_id: country.id });
      await client.call('catalogue API', '/www/visa_product_list', {
        visa_country_id: country.id,
        ...(chance(0.3) ? { province_code: pick(world.provinces) } : {}),
      });
    } else {
      const product = pickPopular(country.products);
      await client.call('catalogue API', '/www/visa_product_detail_get', { visa_product_id: product });
      await client.call('catalogue API', '/www/visa_product_review_list', { visa_product_id: product, page: 1 });
    }
  }
}

// ── Customers ─────────────────────────────────────────────────────────────

/** Today + days, as China's calendar date (YYYY-MM-DD). */
export function chinaDatePlus(days: number): string {
  return new Date(Date.now() + 8 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
}

const IDENTITIES = [0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4];
const SURNAMES = '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗';
const GIVEN = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '霞', '平'];
let applicantSerial = 0;

function applicants(n: number) {
  return Array.from({ length: n }, () => {
    applicantSerial += 1;
    return {
      name: `${pick([...SURNAMES])}${pick(GIVEN)}${applicantSerial}`,
      identity_id: pick(IDENTITIES),
      mobile_phone: `1${pick(['3', '5', '7', '8', '9'])}${String(Math.floor(random() * 1e9)).padStart(9, '0')}`,
    };
  });
}

function scanFor(world: World, photo: boolean): { name: string; type: string; bytes: Buffer } {
  if (photo) return { name: '证件照.jpg', type: 'image/jpeg', bytes: world.files.photo };
  const x = random();
  if (x < 0.6) return { name: '扫描件.jpg', type: 'image/jpeg', bytes: world.files.scan };
  if (x < 0.85) return { name: '银行流水.pdf', type: 'application/pdf', bytes: world.files.pdf };
  return { name: '身份证.png', type: 'image/png', bytes: world.files.png };
}

/**
 * One logged-in enterprise administrator, for the whole run (logged in once
 * at set-up). Between actions (1–3 s): a new order, the whole way (55 %);
 * the order list and one order's detail with one of its files (20 %);
 * re-uploading what an operator refused, when there is some (15 %, else the
 * list); looking at a product page (10 %).
 */
export async function customer(client: Client, world: World, life: Life, me: Customer): Promise<void> {
  const cookie = { cookie: `token=${me.token}` };
  await client.get('customer pages', '/order/order-list', { ...cookie, accept: 'text/html' });
  await client.call('order reads', '/www/user/user_info_query', {}, me.token);
  const mine: number[] = [];
  while (!life.stopping) {
    await think(life, 1_000, 3_000);
    const x = random();
    if (x < 0.55) {
      const id = await placeOrder(client, world, life, me, { thinking: true });
      if (id) mine.push(id);
    } else if (x < 0.75 || mine.length === 0) {
      await readOrders(client, life, me, mine);
    } else if (x < 0.9) {
      await reupload(client, world, life, me);
    } else {
      const product = pickPopular(world.orderable);
      await client.get('customer pages', dataPath(`/visa/product/${product.id}`), { ...cookie, accept: '*/*' });
    }
  }
}

async function readOrders(client: Client, life: Life, me: Customer, mine: number[]) {
  const cookie = { cookie: `token=${me.token}` };
  await client.get('customer pages', dataPath(`/order/order-list${chance(0.5) ? '' : '?tab=processing'}`), { ...cookie, accept: '*/*' });
  await think(life, 1_000, 2_500);
  const list = await client.call('order reads', '/www/order/order_list', { tab: 'all', page: 1 }, me.token);
  const orders = (list?.body?.page_data ?? []) as Array<{ user_order_id: number }>;
  const id = orders.length > 0 ? pick(orders).user_order_id : mine.length > 0 ? pick(mine) : null;
  if (!id) return;
  await client.get('customer pages', dataPath(`/order/order-detail/${id}`), { ...cookie, accept: '*/*' });
  const detail = await client.call('order reads', '/www/order/order_detail_get', { user_order_id: id }, me.token);
  if (!detail?.body) return;
  await think(life, 1_000, 2_000);
  // Open one of the order's files (the upload page's thumbnails and viewer).
  const files = await client.call('order reads', '/www/order/material_list', { user_order_id: id }, me.token);
  const urls: string[] = [];
  for (const applicant of files?.body?.applicants ?? []) {
    for (const item of applicant.electronic ?? []) for (const file of item.files ?? []) urls.push(file.url);
    for (const file of applicant.photo?.files ?? []) urls.push(file.url);
  }
  if (urls.length > 0) await client.get('order reads', pick(urls), { ...cookie, accept: 'image/*,*/*' });
}

/**
 * The whole ordering journey: product page → create-order page → order_create
 * (1–3 applicants) → the upload page: one file per required item (0.5–1.5 s
 * apart; 10 % give up here and leave a draft) → confirm page (30 % take an
 * insurance plan) → order_confirm → payment_create → the payer's phone opens
 * the sandbox pay page and presses 确认支付 → the dialog polls payment_query
 * every 2 s until the order is paid → the order's detail page.
 * Returns the order id (paid or not), or null when it could not be created.
 */
export async function placeOrder(
  client: Client,
  world: World,
  life: Life,
  me: Customer,
  options: { thinking: boolean; product?: { id: number; countryId: number } },
): Promise<number | null> {
  const cookie = { cookie: `token=${me.token}` };
  const pause = (min: number, max: number) => (options.thinking ? think(life, min, max) : Promise.resolve());
  const product = options.product ?? pickPopular(world.orderable);
  if (options.thinking) {
    await client.get('customer pages', dataPath(`/visa/product/${product.id}`), { ...cookie, accept: '*/*' });
    await pause(1_000, 3_000);
    await client.get('customer pages', dataPath(`/ordering/create-order?visa_product_id=${product.id}&visa_country_id=${product.countryId}`), {
      ...cookie,
      accept: '*/*',
    });
    await pause(2_000, 4_000); // typing the applicants
  }
  const people = 1 + Math.floor(random() * 3);
  const created = await client.call(
    'customer ordering',
    '/www/order/order_create',
    { visa_product_id: product.id, departure_date: chinaDatePlus(20 + Math.floor(random() * 70)), applicants: applicants(people) },
    me.token,
  );
  const id = created?.body?.user_order_id as number | undefined;
  if (!id) return null;
  count(life, 'orders created');

  if (options.thinking) await client.get('customer pages', dataPath(`/ordering/upload/${id}`), { ...cookie, accept: '*/*' });
  const list = await client.call('customer ordering', '/www/order/material_list', { user_order_id: id }, me.token);
  if (!list?.body) return id;
  const applicantIds: number[] = list.body.applicants.map((a: { applicant_id: number }) => a.applicant_id);
  for (const missing of list.body.missing as Array<{ applicant_id: number; material_id: number | null }>) {
    if (life.stopping && options.thinking) return id;
    await pause(500, 1_500);
    const photo = missing.material_id === null;
    const fields: Record<string, number | string> = { user_order_id: id, applicant_id: missing.applicant_id };
    if (photo) fields.kind = 'photo';
    else fields.material_id = missing.material_id!;
    const uploaded = await client.upload('uploads', '/www/order/material_upload', multipart(fields, scanFor(world, photo)), me.token);
    if (!uploaded || uploaded.ret !== 0) return id;
    count(life, 'files uploaded');
  }
  if (options.thinking && chance(0.1)) {
    count(life, 'orders left as drafts');
    return id;
  }

  if (options.thinking) await client.get('customer pages', dataPath(`/ordering/order-confirm/${id}`), { ...cookie, accept: '*/*' });
  const plans = await client.call('customer ordering', '/www/order/insurance_plan_list', { user_order_id: id }, me.token);
  await pause(1_000, 3_000);
  const plan = chance(0.3) ? plans?.body?.plans?.[0] : undefined;
  const confirmed = await client.call(
    'customer ordering',
    '/www/order/order_confirm',
    {
      user_order_id: id,
      address_id: me.addressId,
      insurance_plan_id: plan?.insurance_plan_id ?? null,
      ...(plan ? { insurance_days: plan.suggested_days, insured_applicant_ids: applicantIds, protocol_agreed: true } : {}),
    },
    me.token,
  );
  if (!confirmed?.body) return id;

  const payment = await client.call('payment', '/www/payment/payment_create', { user_order_id: id, channel: chance(0.6) ? 'wechat' : 'alipay' }, me.token);
  const codeUrl = payment?.body?.code_url as string | undefined;
  if (!codeUrl) return id;
  // The payer's phone: the pay page from the QR code, then 确认支付 (the sandbox notifies the server).
  const pay = new URL(codeUrl);
  await client.get('payment', pay.pathname, { accept: 'text/html' }, { base: pay.origin });
  await pause(1_000, 2_000);
  const paid = await client.postForm('payment', `${pay.pathname}/confirm`, { base: pay.origin });
  if (!paid) return id;
  // The payment dialog polls every 2 s until the notification has settled the order.
  for (let attempt = 0; attempt < 15; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (life.stopping && options.thinking) return id;
    const query = await client.call('payment', '/www/payment/payment_query', { user_order_id: id, out_trade_no: payment!.body.out_trade_no }, me.token);
    if (query?.body?.order_paid) {
      count(life, 'orders paid');
      if (options.thinking) await client.get('customer pages', dataPath(`/order/order-detail/${id}`), { ...cookie, accept: '*/*' });
      return id;
    }
    if (!query) return id;
  }
  client.recorder.record('payment', 0, 'error', `order ${id}: not paid 30 s after 确认支付`);
  return id;
}

/** 需要处理 → 重新上传: replace every refused file of one order, then submit it for review again. */
async function reupload(client: Client, world: World, life: Life, me: Customer): Promise<void> {
  const cookie = { cookie: `token=${me.token}` };
  await client.get('customer pages', dataPath('/order/order-list?tab=action'), { ...cookie, accept: '*/*' });
  const list = await client.call('order reads', '/www/order/order_list', { tab: 'action', page: 1 }, me.token);
  const order = ((list?.body?.page_data ?? []) as Array<{ user_order_id: number; actions: string[] }>).find((o) => o.actions.includes('reupload'));
  if (!order) return;
  const id = order.user_order_id;
  await think(life, 1_000, 2_000);
  await client.get('customer pages', dataPath(`/order/order-reupload/${id}`), { ...cookie, accept: '*/*' });
  const materials = await client.call('customer ordering', '/www/order/material_list', { user_order_id: id }, me.token);
  if (!materials?.body) return;
  for (const applicant of materials.body.applicants) {
    const refused: Array<{ file_id: number; material_id: number | null }> = [];
    for (const item of applicant.electronic) for (const file of item.files) if (file.review_status === 'no_pass') refused.push(file);
    for (const file of applicant.photo?.files ?? []) if (file.review_status === 'no_pass') refused.push(file);
    for (const file of refused) {
      await think(life, 500, 1_500);
      const photo = file.material_id === null;
      const fields: Record<string, number | string> = { user_order_id: id, applicant_id: applicant.applicant_id, replace_file_id: file.file_id };
      if (photo) fields.kind = 'photo';
      else fields.material_id = file.material_id!;
      const answer = await client.upload('uploads', '/www/order/material_upload', multipart(fields, scanFor(world, photo)), me.token);
      if (!answer || answer.ret !== 0) return;
    }
  }
  const submitted = await client.call('customer ordering', '/www/order/reupload_submit', { user_order_id: id }, me.token);
  if (submitted?.body) count(life, 'orders re-uploaded');
}

// ── Operators ─────────────────────────────────────────────────────────────

/**
 * One logged-in operator (logged in once at set-up, with a TOTP code). The
 * queue page first (HTML), then in a loop: the queue of material_review
 * (unassigned 70 %, mine 20 %, a search by an applicant's phone or the whole
 * queue 10 %); an order of their own with files pending, or take one of the
 * first unassigned ones (another operator may have just taken it: an
 * expected refusal); the workbench; then each pending file: open it
 * (/admin-files, logged), look 1.5–4 s, pass (97 %) or no-pass with a reason
 * (3 %: with ~10 files an order, about a quarter of the orders go back to
 * their customer for a re-upload) — the page revalidates after each (.data).
 */
export async function operator(client: Client, life: Life, me: Operator): Promise<void> {
  const cookie = { cookie: `admin_token=${me.token}` };
  await client.get('operator queue', '/admin/orders', { ...cookie, accept: 'text/html' });
  await client.call('operator queue', '/admin-api/order/queue_filters', {}, me.token);
  while (!life.stopping) {
    await think(life, 1_000, 3_000);
    const x = random();
    const query =
      x < 0.7
        ? { step: 'material_review', assignee: 'none', page: 1 }
        : x < 0.9
          ? { step: 'material_review', assignee: 'me', page: 1 }
          : chance(0.5)
            ? { q: `13${String(Math.floor(random() * 1e9)).padStart(9, '0')}`, assignee: 'all', page: 1 }
            : { assignee: 'all', page: 1 + Math.floor(random() * 3) };
    const queue = await client.call('operator queue', '/admin-api/order/queue', query, me.token);
    const rows = (queue?.body?.list ?? []) as Array<{ user_order_id: number; step: string | null; assignee: { operator_id: number } | null }>;
    let id: number | undefined;
    if (query.assignee === 'me') id = rows.find((r) => r.step === 'material_review')?.user_order_id;
    else if (query.assignee === 'none') {
      const free = rows.filter((r) => r.assignee === null && r.step === 'material_review').slice(0, 5);
      if (free.length === 0) continue;
      await think(life, 500, 1_500);
      const candidate = pick(free).user_order_id;
      const taken = await client.call('operator review', '/admin-api/order/take', { user_order_id: candidate }, me.token, {
        expectRet: [ErrorCode.REVIEW_ALREADY_TAKEN],
      });
      if (taken?.ret === 0) {
        id = candidate;
        count(life, 'orders taken');
      }
    }
    if (!id) continue;
    await reviewOrder(client, life, me, id);
  }
}

async function reviewOrder(client: Client, life: Life, me: Operator, id: number): Promise<void> {
  const cookie = { cookie: `admin_token=${me.token}` };
  const bench = await client.call('operator review', '/admin-api/order/workbench', { user_order_id: id }, me.token);
  if (!bench?.body?.can_review) return;
  let version = bench.body.order.version as number;
  const pending: Array<{ file_id: number; url: string }> = [];
  for (const applicant of bench.body.applicants ?? [])
    for (const item of applicant.items) for (const file of item.files) if (file.review_status === 'pending') pending.push(file);
  for (const file of pending) {
    if (life.stopping) return;
    await client.get('operator review', file.url, { ...cookie, accept: 'image/*,application/pdf,*/*' });
    await think(life, 1_500, 4_000);
    const pass = chance(0.97);
    const answer = await client.call(
      'operator review',
      '/admin-api/order/file_review',
      {
        user_order_id: id,
        file_id: file.file_id,
        version,
        result: pass ? 'pass' : 'no_pass',
        ...(pass ? {} : { reasons: ['blurred'], memo: '请上传清晰的扫描件' }),
      },
      me.token,
    );
    if (!answer?.body) return;
    version = answer.body.version;
    count(life, pass ? 'files passed' : 'files refused');
    if (answer.body.round_result) count(life, `review rounds ${answer.body.round_result}`);
    // The workbench revalidates its loader after each review.
    await client.get('operator review', dataPath(`/admin/orders/${id}`), { ...cookie, accept: '*/*' });
  }
}

export type { Response };
