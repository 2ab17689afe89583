// A local stand-in for Alibaba Cloud SMS (dysmsapi, SendSms), written from
// Alibaba Cloud's documentation of the RPC signature (signature version 1.0)
// for the SMS provider's tests: nothing here reaches Alibaba Cloud. It checks
// a call the way the service does, with its own encoder (not the provider's):
// - the common parameters: Action=SendSms, Version=2017-05-25, Format,
//   SignatureMethod=HMAC-SHA1, SignatureVersion=1.0, a Timestamp within 15
//   minutes, a SignatureNonce never seen before (SignatureNonceUsed), the
//   AccessKeyId of the account (InvalidAccessKeyId.NotFound);
// - the signature: every parameter but Signature, sorted by name, each name
//   and value percent-encoded (UTF-8; A–Z a–z 0–9 - _ . ~ left as they are,
//   every other byte %XY upper case), joined name=value with &; StringToSign =
//   "GET&%2F&" + percentEncode(that); HMAC-SHA1 with AccessKeySecret + "&",
//   Base64 (SignatureDoesNotMatch);
// - SendSms: PhoneNumbers a mainland mobile (isv.MOBILE_NUMBER_ILLEGAL), the
//   account's SignName (isv.SMS_SIGNATURE_ILLEGAL), a known TemplateCode
//   (isv.SMS_TEMPLATE_ILLEGAL), TemplateParam a JSON object of strings
//   (isv.INVALID_JSON_PARAM) with every variable of the template
//   (isv.TEMPLATE_MISSING_PARAMETERS), each at most 35 characters
//   (isv.PARAM_LENGTH_LIMIT).
// Answers: HTTP 200 {RequestId, Code, Message, BizId} (BizId on OK only).
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AliyunSmsFakeAccount {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** Template code → its variable names. */
  templates: Record<string, string[]>;
}

export interface ReceivedSms {
  phone: string;
  templateCode: string;
  params: Record<string, string>;
  bizId: string;
}

/** Alibaba's percentEncode, byte by byte from the UTF-8 bytes. */
function encode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export async function startAliyunSmsFake(account: AliyunSmsFakeAccount, options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const nonces = new Set<string>();
  const received: ReceivedSms[] = [];
  /** Codes to answer with instead of OK, one per call (then OK again). */
  const forced: string[] = [];

  function answer(code: string, message: string, bizId?: string) {
    return { RequestId: randomUUID(), Code: code, Message: message, ...(bizId ? { BizId: bizId } : {}) };
  }

  function handle(query: URLSearchParams) {
    const params: Record<string, string> = {};
    for (const [name, value] of query) params[name] = value;
    const signature = params.Signature;
    if (!signature) return answer('MissingSignature', 'Signature is mandatory for this action.');
    if (params.Action !== 'SendSms' || params.Version !== '2017-05-25') return answer('InvalidAction.NotFound', 'Specified api is not found.');
    if (params.SignatureMethod !== 'HMAC-SHA1' || params.SignatureVersion !== '1.0') return answer('InvalidSignatureMethod', 'bad signature method');
    if (params.AccessKeyId !== account.accessKeyId) return answer('InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    const stamp = Date.parse(params.Timestamp ?? '');
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(params.Timestamp ?? '') || Math.abs(now() - stamp) > 15 * 60_000) {
      return answer('InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    }
    const canonical = Object.keys(params)
      .filter((name) => name !== 'Signature')
      .sort()
      .map((name) => `${encode(name)}=${encode(params[name]!)}`)
      .join('&');
    const expected = createHmac('sha1', `${account.accessKeySecret}&`)
      .update(`GET&${encode('/')}&${encode(canonical)}`)
      .digest('base64');
    if (expected !== signature) return answer('SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    if (!params.SignatureNonce || nonces.has(params.SignatureNonce)) return answer('SignatureNonceUsed', 'Specified signature nonce was used already.');
    nonces.add(params.SignatureNonce);

    const phone = params.PhoneNumbers ?? '';
    if (!/^1[3-9]\d{9}$/.test(phone)) return answer('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');
    if (params.SignName !== account.signName) return answer('isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
    const variables = account.templates[params.TemplateCode ?? ''];
    if (!variables) return answer('isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    let templateParams: Record<string, string>;
    try {
      templateParams = JSON.parse(params.TemplateParam ?? '');
    } catch {
      return answer('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    if (!templateParams || typeof templateParams !== 'object' || Object.values(templateParams).some((v) => typeof v !== 'string')) {
      return answer('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    if (variables.some((name) => !(name in templateParams))) return answer('isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量');
    if (Object.values(templateParams).some((v) => v.length > 35)) return answer('isv.PARAM_LENGTH_LIMIT', '参数超出长度限制');
    const next = forced.shift();
    if (next) return answer(next, 'forced by the test');
    const bizId = `${Date.now()}^${received.length + 1}`;
    received.push({ phone, templateCode: params.TemplateCode!, params: templateParams, bizId });
    return answer('OK', 'OK', bizId);
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = request.method === 'GET' ? handle(url.searchParams) : answer('UnsupportedHTTPMethod', 'GET only in this fake');
    response.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    received,
    /** The next call answers this code (e.g. isv.BUSINESS_LIMIT_CONTROL). */
    fail: (code: string) => forced.push(code),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
