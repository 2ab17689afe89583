// A local stand-in for SF Express's open platform (丰桥 std/service), written
// from SF's public documentation (decision 0039), for the SF provider's
// tests: nothing here reaches SF. It checks every call the way SF's gateway
// does and answers in SF's format:
// - the form: partnerID, requestID, serviceCode, timestamp, msgDigest, msgData
//   all present (A1001); the partner is the account's and the service one it
//   offers (A1004); the timestamp (ms) within 5 minutes of its clock (A1002);
//   msgDigest = Base64(MD5(URLEncode(msgData + timestamp + checkWord)))
//   (A1006); a requestID never seen before (A1007);
// - EXP_RECE_CREATE_ORDER: language, orderId, the sender (contactType 1) and
//   receiver (2) each with contact, mobile or tel, and address, a cargo name,
//   the account's monthly card (月结卡号) — else SF's business codes; one
//   order per orderId: a second create with it answers 8016 (重复下单);
// - EXP_RECE_UPDATE_ORDER dealType 2 (cancel): 8024 unknown order, 8037
//   cancelled already, 8252 picked up already;
// - EXP_RECE_SEARCH_ORDER_RESP: the order's waybill (8024 when none);
// - EXP_RECE_SEARCH_ROUTES: routeResps per waybill number asked (trackingType 1).
// Answers: HTTP 200, {apiResultCode, apiErrorMsg, apiResponseID,
// apiResultData: JSON string {success, errorCode (S0000), errorMsg, msgData}}.
// It can also post SF's signed route push (RoutePushService) to the
// merchant, stall an answer past the caller's time-out (the call itself is
// done), or drop every connection (SF unreachable).
import { randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sfDigest, signedSfForm } from '../../modules/courier/sandbox-signature.ts';
import {
  SF_CREATE_ORDER_SERVICE,
  SF_ROUTE_PUSH_SERVICE,
  SF_SEARCH_ORDER_SERVICE,
  SF_SEARCH_ROUTES_SERVICE,
  SF_UPDATE_ORDER_SERVICE,
  formatAcceptTime,
} from '../../modules/courier/sf-format.ts';

const SERVICES = [SF_CREATE_ORDER_SERVICE, SF_UPDATE_ORDER_SERVICE, SF_SEARCH_ORDER_SERVICE, SF_SEARCH_ROUTES_SERVICE] as const;
type Service = (typeof SERVICES)[number];
const MAX_SKEW_MS = 5 * 60_000;

export interface SfFakeAccount {
  partnerId: string;
  checkWord: string;
  monthlyCard: string;
}

export interface SfFakeRoute {
  id: string;
  opCode: string;
  at: number;
  remark: string;
  acceptAddress: string;
}

export interface SfFakeOrder {
  orderId: string;
  waybillNo: string;
  msgData: Record<string, unknown>;
  cancelled: boolean;
  routes: SfFakeRoute[];
}

export interface SfFakeCall {
  serviceCode: string;
  /** The gateway's code (A1000 accepted), then the business code when accepted. */
  apiResultCode: string;
  errorCode: string | null;
}

type Answer = { apiResultCode: string; apiErrorMsg: string } | { success: true; msgData: unknown } | { success: false; errorCode: string; errorMsg: string };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export async function startSfFake(account: SfFakeAccount, options: { now: () => number }) {
  const orders = new Map<string, SfFakeOrder>();
  const byWaybill = new Map<string, SfFakeOrder>();
  const requestIds = new Set<string>();
  const calls: SfFakeCall[] = [];
  const stalls = new Map<string, number[]>();
  let down = false;

  /** The gateway's checks; null when the call may go on. */
  function gateway(form: URLSearchParams): { apiResultCode: string; apiErrorMsg: string } | null {
    const field = (name: string) => {
      const values = form.getAll(name);
      return values.length === 1 && values[0] !== '' ? values[0]! : null;
    };
    const [partnerId, requestId, serviceCode, timestamp, digest, msgData] = ['partnerID', 'requestID', 'serviceCode', 'timestamp', 'msgDigest', 'msgData'].map(
      field,
    );
    if (!partnerId || !requestId || !serviceCode || !timestamp || !digest || msgData === null)
      return { apiResultCode: 'A1001', apiErrorMsg: '必传参数不可为空' };
    if (partnerId !== account.partnerId || !(SERVICES as readonly string[]).includes(serviceCode))
      return { apiResultCode: 'A1004', apiErrorMsg: '无对应服务权限' };
    if (!/^\d{13}$/.test(timestamp) || Math.abs(Number(timestamp) - options.now()) > MAX_SKEW_MS)
      return { apiResultCode: 'A1002', apiErrorMsg: '请求时效已过期' };
    if (!sameText(sfDigest(msgData!, timestamp, account.checkWord), digest)) return { apiResultCode: 'A1006', apiErrorMsg: '数字签名无效' };
    if (requestIds.has(requestId)) return { apiResultCode: 'A1007', apiErrorMsg: '重复请求' };
    requestIds.add(requestId);
    return null;
  }

  function createOrder(msg: Record<string, unknown>): Answer {
    const orderId = text(msg.orderId);
    if (!text(msg.language)) return { success: false, errorCode: '1001', errorMsg: 'language不能为空' };
    if (!orderId || orderId.length > 64) return { success: false, errorCode: '8013', errorMsg: '订单号不能为空' };
    if (orders.has(orderId)) return { success: false, errorCode: '8016', errorMsg: '重复下单' };
    const contacts = Array.isArray(msg.contactInfoList) ? (msg.contactInfoList as Array<Record<string, unknown>>) : [];
    const sender = contacts.find((c) => Number(c.contactType) === 1);
    const receiver = contacts.find((c) => Number(c.contactType) === 2);
    const missing: Array<[Record<string, unknown> | undefined, string, string, string]> = [
      [sender, 'address', '1010', '寄件地址不能为空'],
      [sender, 'contact', '1011', '寄件联系人不能为空'],
      [sender, 'phone', '1012', '寄件电话不能为空'],
      [receiver, 'address', '1014', '到件地址不能为空'],
      [receiver, 'contact', '1015', '到件联系人不能为空'],
      [receiver, 'phone', '1016', '到件电话不能为空'],
    ];
    for (const [who, key, errorCode, errorMsg] of missing) {
      const value = key === 'phone' ? text(who?.mobile) || text(who?.tel) : text(who?.[key]);
      if (!value) return { success: false, errorCode, errorMsg };
    }
    const cargo = Array.isArray(msg.cargoDetails) ? (msg.cargoDetails as Array<Record<string, unknown>>) : [];
    if (cargo.length === 0 || !text(cargo[0]!.name)) return { success: false, errorCode: '1003', errorMsg: '托寄物名称不能为空' };
    // Paid by the sender's monthly account (payMethod 1): it must be this account's card.
    if (Number(msg.payMethod ?? 1) === 1 && text(msg.monthlyCard) !== account.monthlyCard)
      return { success: false, errorCode: '6126', errorMsg: '月结卡号不合法' };
    const order: SfFakeOrder = {
      orderId,
      waybillNo: `SF${Array.from({ length: 13 }, () => randomInt(10)).join('')}`,
      msgData: msg,
      cancelled: false,
      routes: [],
    };
    orders.set(orderId, order);
    byWaybill.set(order.waybillNo, order);
    return {
      success: true,
      msgData: { orderId, originCode: '021', destCode: '010', filterResult: 2, waybillNoInfoList: [{ waybillType: 1, waybillNo: order.waybillNo }] },
    };
  }

  function updateOrder(msg: Record<string, unknown>): Answer {
    const order = orders.get(text(msg.orderId));
    if (!order) return { success: false, errorCode: '8024', errorMsg: '未下单' };
    if (Number(msg.dealType) !== 2) return { success: true, msgData: { orderId: order.orderId, resStatus: 2 } };
    if (order.cancelled) return { success: false, errorCode: '8037', errorMsg: '已消单' };
    if (order.routes.length > 0) return { success: false, errorCode: '8252', errorMsg: '订单已揽收，不能取消' };
    order.cancelled = true;
    return { success: true, msgData: { orderId: order.orderId, waybillNoInfoList: [{ waybillType: 1, waybillNo: order.waybillNo }], resStatus: 2 } };
  }

  function searchOrder(msg: Record<string, unknown>): Answer {
    const order = orders.get(text(msg.orderId));
    if (!order) return { success: false, errorCode: '8024', errorMsg: '未下单' };
    return { success: true, msgData: { orderId: order.orderId, waybillNoInfoList: [{ waybillType: 1, waybillNo: order.waybillNo }], filterResult: 2 } };
  }

  function searchRoutes(msg: Record<string, unknown>): Answer {
    if (String(msg.trackingType) !== '1' || !Array.isArray(msg.trackingNumber)) return { success: false, errorCode: '1001', errorMsg: '查询参数不正确' };
    const routeResps = (msg.trackingNumber as unknown[])
      .map((no) => byWaybill.get(String(no)))
      .filter((order): order is SfFakeOrder => order !== undefined)
      .map((order) => ({
        mailNo: order.waybillNo,
        routes: order.routes.map((route) => ({
          acceptTime: formatAcceptTime(route.at),
          acceptAddress: route.acceptAddress,
          remark: route.remark,
          opCode: route.opCode,
        })),
      }));
    return { success: true, msgData: { routeResps } };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (down) {
      request.socket.destroy();
      return;
    }
    const form = new URLSearchParams(await readBody(request));
    const serviceCode = form.get('serviceCode') ?? '';
    let answer: Answer | null = request.method === 'POST' ? gateway(form) : { apiResultCode: 'A1099', apiErrorMsg: '系统异常' };
    if (answer === null) {
      let msg: Record<string, unknown> | null = null;
      try {
        const parsed = JSON.parse(form.get('msgData')!) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) msg = parsed as Record<string, unknown>;
      } catch {
        msg = null;
      }
      if (msg === null) answer = { success: false, errorCode: '1001', errorMsg: '业务报文格式错误' };
      else {
        const run: Record<Service, (m: Record<string, unknown>) => Answer> = {
          [SF_CREATE_ORDER_SERVICE]: createOrder,
          [SF_UPDATE_ORDER_SERVICE]: updateOrder,
          [SF_SEARCH_ORDER_SERVICE]: searchOrder,
          [SF_SEARCH_ROUTES_SERVICE]: searchRoutes,
        };
        answer = run[serviceCode as Service](msg);
      }
    }
    const accepted = !('apiResultCode' in answer);
    calls.push({
      serviceCode,
      apiResultCode: accepted ? 'A1000' : (answer as { apiResultCode: string }).apiResultCode,
      errorCode: accepted ? ((answer as { success: boolean }).success ? 'S0000' : (answer as { errorCode: string }).errorCode) : null,
    });
    const body = accepted
      ? {
          apiResultCode: 'A1000',
          apiErrorMsg: '',
          apiResponseID: randomUUID().replace(/-/g, '').toUpperCase(),
          apiResultData: JSON.stringify(
            (answer as { success: boolean }).success
              ? { success: true, errorCode: 'S0000', errorMsg: null, msgData: (answer as { msgData: unknown }).msgData }
              : { success: false, errorCode: (answer as { errorCode: string }).errorCode, errorMsg: (answer as { errorMsg: string }).errorMsg, msgData: null },
          ),
        }
      : { ...(answer as object), apiResponseID: randomUUID().replace(/-/g, '').toUpperCase(), apiResultData: null };
    const stall = stalls.get(serviceCode)?.shift();
    if (stall) await new Promise((resolve) => setTimeout(resolve, stall));
    response.writeHead(200, { 'content-type': 'application/json;charset=UTF-8' }).end(JSON.stringify(body));
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/std/service`,
    orders,
    calls,
    /** The order SF holds for this waybill. */
    order(waybillNo: string): SfFakeOrder | undefined {
      return byWaybill.get(waybillNo);
    },
    /** The next call of this service is done but answered only after `ms` (past the caller's time-out). */
    stallNext(serviceCode: string, ms: number): void {
      stalls.set(serviceCode, [...(stalls.get(serviceCode) ?? []), ms]);
    },
    /** SF unreachable: every connection is dropped. */
    setDown(value: boolean): void {
      down = value;
    },
    /** A tracking event of the parcel (what the route query answers from now on); returns it. */
    scan(waybillNo: string, opCode: string, at: number, remark: string, acceptAddress = '上海市'): SfFakeRoute {
      const order = byWaybill.get(waybillNo);
      if (!order) throw new Error(`no order with waybill ${waybillNo}`);
      const route = { id: `${waybillNo.replace(/\D/g, '')}${String(order.routes.length + 1).padStart(2, '0')}`, opCode, at, remark, acceptAddress };
      order.routes.push(route);
      return route;
    },
    /** SF's route push of these events (RoutePushService), signed with the account's check word now. */
    pushForm(waybillNo: string, routes: SfFakeRoute[], signAs: Partial<SfFakeAccount> = {}): string {
      const order = byWaybill.get(waybillNo);
      const msgData = JSON.stringify({
        Body: {
          WaybillRoute: routes.map((route) => ({
            id: route.id,
            mailno: waybillNo,
            orderid: order?.orderId,
            acceptTime: formatAcceptTime(route.at),
            acceptAddress: route.acceptAddress,
            remark: route.remark,
            opCode: route.opCode,
          })),
        },
      });
      return signedSfForm(
        { partnerId: signAs.partnerId ?? account.partnerId, checkWord: signAs.checkWord ?? account.checkWord },
        SF_ROUTE_PUSH_SERVICE,
        msgData,
        options.now(),
      );
    },
    close(): Promise<void> {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export type SfFake = Awaited<ReturnType<typeof startSfFake>>;
