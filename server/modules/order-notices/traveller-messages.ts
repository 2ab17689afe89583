// What each traveller is told themselves (issue 29, part 4): the one place
// that maps order events to messages for an applicant's own mobile (SMS) and
// e-mail. The ordering account keeps its notices (notice-kinds.ts); this adds,
// in the same transaction, a row per applicant and channel that the traveller
// outbox (modules/notification/traveller-outbox.ts) sends after the commit.
//
// An SMS carries an approved template and its variables only (no free text):
// Alibaba Cloud checks a template's wording once, and the variables here are
// the facts of the order (a date, a place, a waybill), each cut to the
// provider's variable length. The e-mail says the same words, rendered from
// the same template text.
//
// The same news about the same applicant is written once: the dedupe key is
// the template's subject and its variables, unique per applicant and channel,
// so an event recorded twice (a republication with the same time and place, a
// courier push repeated) sends nothing new, while a real change does.
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OrderEventName } from '../../../common/order.ts';
import type { NoticeEvent, NoticeOrder } from './notice-kinds.ts';

/** The events that may tell a traveller something (the traveller outbox runs after their commits). */
export const TRAVELLER_EVENTS = [
  'interview_notice_publish',
  'interview_change_accept',
  'page_check_publish',
  'result_issue',
  'result_reject',
  'ship_back',
] as const;

/** Alibaba Cloud SMS cuts a template variable at 35 characters; ours never rely on that. */
export const SMS_VARIABLE_MAX = 35;

interface TravellerTemplate {
  /** What the operator's list calls it. */
  label: string;
  /** The e-mail's subject. */
  subject: string;
  /** The approved wording; ${name} are the variables (the same text is registered with the provider). */
  text: string;
  /** The dedupe group: an appointment's first notice and its changes share one, so the same time twice is one message. */
  group: string;
}

/** The approved templates. Their codes at the provider come from configuration (ALIYUN_SMS_TEMPLATES). */
export const TRAVELLER_TEMPLATES = {
  appointment: {
    label: '面试/录指纹预约',
    subject: '面试/录指纹预约通知',
    text: '${name}您好，您的签证面试/录指纹预约在${date} ${time}，地点：${place}（${address}），请携带：${bring}。订单号${order_no}。',
    group: 'appointment',
  },
  appointment_change: {
    label: '面试/录指纹改期',
    subject: '面试/录指纹时间已变更',
    text: '${name}您好，您的签证面试/录指纹时间已变更为${date} ${time}，地点：${place}（${address}），请携带：${bring}。订单号${order_no}。',
    group: 'appointment',
  },
  page_check: {
    label: '核对页待确认',
    subject: '签证申请表核对页待确认',
    text: '${name}您好，您的签证申请表核对页已生成，请与下单人一起逐页核对并确认，有误请尽快提出修改。订单号${order_no}。',
    group: 'page_check',
  },
  result_issued: {
    label: '已出签',
    subject: '您的签证已出签',
    text: '${name}您好，您的签证已出签，签证号${visa_no}，有效期至${valid_to}。订单号${order_no}。',
    group: 'result',
  },
  result_rejected: {
    label: '拒签',
    subject: '签证结果通知',
    text: '${name}您好，很遗憾，您的签证申请未获批准，原因请向下单人了解或咨询客服。订单号${order_no}。',
    group: 'result',
  },
  ship_back: {
    label: '护照已寄回',
    subject: '您的护照已寄回',
    text: '${name}您好，您的护照已寄回，${company}运单号${waybill}，请留意查收。订单号${order_no}。',
    group: 'ship_back',
  },
} as const satisfies Record<string, TravellerTemplate>;

export type TravellerTemplateKey = keyof typeof TRAVELLER_TEMPLATES;

export function isTravellerTemplate(key: string): key is TravellerTemplateKey {
  return Object.hasOwn(TRAVELLER_TEMPLATES, key);
}

/** A variable as the provider takes it: one line, no template syntax, at most SMS_VARIABLE_MAX characters. */
export function smsVariable(value: string): string {
  const flat = value
    .replace(/[\s\u3000]+/g, ' ')
    .replace(/[${}]/g, '')
    .trim();
  return flat.length <= SMS_VARIABLE_MAX ? flat : `${flat.slice(0, SMS_VARIABLE_MAX - 1)}…`;
}

/** The template's words with its variables put in (the e-mail, the sandbox's file, the operator's list). */
export function renderTravellerText(key: TravellerTemplateKey, params: Record<string, string>): string {
  return TRAVELLER_TEMPLATES[key].text.replace(/\$\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
}

/** The variables a template uses, in order (a check that a message has each and nothing else). */
export function templateVariables(key: TravellerTemplateKey): string[] {
  return [...TRAVELLER_TEMPLATES[key].text.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]!);
}

const MOBILE = /^1[3-9]\d{9}$/;
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** A mainland mobile number the provider takes (spaces, dashes and a +86 dropped), or null. */
export function normaliseMobile(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/[\s-]/g, '').replace(/^(\+?86)(?=1\d{10}$)/, '');
  return MOBILE.test(digits) ? digits : null;
}

function normaliseEmail(raw: string | null | undefined): string | null {
  const email = (raw ?? '').trim();
  return ADDRESS.test(email) && email.length <= 254 ? email : null;
}

const CHINA_OFFSET_MS = 8 * 3_600_000;
const HOUR_MS = 3_600_000;
/** The SMS quiet hours, China time: nothing from 22:00 until 08:00 but a same-day change. */
export const QUIET_FROM_HOUR = 22;
export const QUIET_UNTIL_HOUR = 8;

/** The China date (YYYY-MM-DD) of an instant. */
export function chinaDateOf(at: number): string {
  return new Date(at + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** Whether an instant falls in the quiet hours (22:00–08:00 China time). */
export function inQuietHours(at: number): boolean {
  const hour = new Date(at + CHINA_OFFSET_MS).getUTCHours();
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** The end of the quiet hours an instant is in (the next 08:00 China time); the instant itself outside them. */
export function quietHoursEnd(at: number): number {
  if (!inQuietHours(at)) return at;
  const local = at + CHINA_OFFSET_MS;
  const dayStart = Math.floor(local / (24 * HOUR_MS)) * 24 * HOUR_MS;
  const eight = dayStart + QUIET_UNTIL_HOUR * HOUR_MS;
  return (local < eight ? eight : eight + 24 * HOUR_MS) - CHINA_OFFSET_MS;
}

/** One message for one applicant, before it is stored (both channels). */
export interface TravellerDraft {
  applicant_id: number;
  template: TravellerTemplateKey;
  params: Record<string, string>;
  /** Extra facts that make a message new though its words are not (a page check's round). */
  dedupe_extra?: string;
  /** A change of an appointment on the day it is sent (then also in the quiet hours). */
  urgent: boolean;
}

interface ApplicantRow {
  applicant_id: number;
  name: string;
  mobile_phone: string;
  email: string | null;
}

function applicantOf(detail: NoticeEvent['detail']): number | null {
  const id = detail?.applicant_id;
  return typeof id === 'number' && Number.isInteger(id) ? id : null;
}

/**
 * The messages an event makes for the applicants it concerns, read from what
 * the event's own `within` just wrote (the notice, the result, the parcel).
 * Events that concern no applicant make none.
 */
export async function travellerDraftsOf(trx: Transaction<Database>, event: NoticeEvent, order: NoticeOrder): Promise<TravellerDraft[]> {
  const base = (name: string) => ({ name: smsVariable(name), order_no: smsVariable(order.order_no) });
  const applicants = await trx
    .selectFrom('order_applicant')
    .select(['applicant_id', 'name', 'mobile_phone', 'email'])
    .where('user_order_id', '=', order.user_order_id)
    .execute();
  const byId = new Map<number, ApplicantRow>(applicants.map((a) => [a.applicant_id, a]));
  const today = chinaDateOf(event.created_at);

  switch (event.event) {
    case 'interview_notice_publish':
    case 'interview_change_accept': {
      const applicant = byId.get(applicantOf(event.detail) ?? -1);
      if (!applicant) return [];
      const notice = await trx
        .selectFrom('interview_notice')
        .selectAll()
        .where('user_order_id', '=', order.user_order_id)
        .where('applicant_id', '=', applicant.applicant_id)
        .executeTakeFirst();
      if (!notice) return [];
      const materials = parseStrings(notice.materials);
      const change = event.event === 'interview_change_accept' || event.detail?.republish === true;
      return [
        {
          applicant_id: applicant.applicant_id,
          template: change ? 'appointment_change' : 'appointment',
          params: {
            ...base(applicant.name),
            date: smsVariable(notice.interview_date),
            time: smsVariable(`${notice.start_time}-${notice.end_time}`),
            place: smsVariable(notice.consulate_name),
            address: smsVariable(notice.consulate_address),
            bring: smsVariable(materials.length ? materials.join('、') : '护照原件'),
          },
          // A change for today goes out at once, even at night: the traveller may be on the way.
          urgent: change && notice.interview_date === today,
        },
      ];
    }
    case 'page_check_publish': {
      const applicant = byId.get(applicantOf(event.detail) ?? -1);
      if (!applicant) return [];
      const round = typeof event.detail?.round === 'number' ? event.detail.round : 1;
      return [{ applicant_id: applicant.applicant_id, template: 'page_check', params: base(applicant.name), dedupe_extra: `round ${round}`, urgent: false }];
    }
    case 'result_issue':
    case 'result_reject': {
      const applicant = byId.get(applicantOf(event.detail) ?? -1);
      if (!applicant) return [];
      if (event.event === 'result_reject')
        return [{ applicant_id: applicant.applicant_id, template: 'result_rejected', params: base(applicant.name), urgent: false }];
      const result = await trx.selectFrom('visa_result').select(['visa_no', 'valid_to']).where('applicant_id', '=', applicant.applicant_id).executeTakeFirst();
      return [
        {
          applicant_id: applicant.applicant_id,
          template: 'result_issued',
          params: { ...base(applicant.name), visa_no: smsVariable(result?.visa_no ?? '—'), valid_to: smsVariable(result?.valid_to ?? '—') },
          urgent: false,
        },
      ];
    }
    case 'ship_back': {
      const shipmentId = event.detail?.shipment_id;
      const waybill = typeof event.detail?.waybill_no === 'string' ? event.detail.waybill_no : '';
      if (typeof shipmentId !== 'number' || !waybill) return [];
      const company = typeof event.detail?.courier_company_name === 'string' ? event.detail.courier_company_name : '快递';
      const inParcel = await trx.selectFrom('shipment_applicant').select('applicant_id').where('shipment_id', '=', shipmentId).execute();
      // A parcel that names nobody carries every applicant's passport.
      const ids = inParcel.length ? inParcel.map((r) => r.applicant_id) : applicants.map((a) => a.applicant_id);
      return ids.flatMap((id) => {
        const applicant = byId.get(id);
        if (!applicant) return [];
        return [
          {
            applicant_id: id,
            template: 'ship_back' as const,
            params: { ...base(applicant.name), company: smsVariable(company), waybill: smsVariable(waybill) },
            urgent: false,
          },
        ];
      });
    }
    default:
      return [];
  }
}

function parseStrings(value: unknown): string[] {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The dedupe key: the template's group and a hash of its variables (and extra facts). */
export function dedupeKeyOf(draft: TravellerDraft): string {
  const template = TRAVELLER_TEMPLATES[draft.template];
  const names = Object.keys(draft.params).sort();
  const hash = createHash('sha256')
    .update(JSON.stringify([names.map((n) => [n, draft.params[n]]), draft.dedupe_extra ?? '']))
    .digest('hex')
    .slice(0, 40);
  return `${template.group}:${hash}`;
}

/**
 * Stores the messages of an event for the applicants it concerns: an SMS to
 * each one's mobile and an e-mail where an address is given. An SMS written in
 * the quiet hours waits until 08:00 unless it is a same-day change; a number
 * that opted out gets its row marked skipped (the operator sees why). Returns
 * how many rows were written (a repeated event writes none).
 */
export async function storeTravellerMessages(trx: Transaction<Database>, event: NoticeEvent, order: NoticeOrder): Promise<number> {
  if (!(TRAVELLER_EVENTS as readonly OrderEventName[]).includes(event.event)) return 0;
  const drafts = await travellerDraftsOf(trx, event, order);
  if (!drafts.length) return 0;
  const applicants = await trx
    .selectFrom('order_applicant')
    .select(['applicant_id', 'mobile_phone', 'email'])
    .where('user_order_id', '=', order.user_order_id)
    .execute();
  let written = 0;
  for (const draft of drafts) {
    const applicant = applicants.find((a) => a.applicant_id === draft.applicant_id);
    if (!applicant) continue;
    const dedupe_key = dedupeKeyOf(draft);
    const targets: Array<{ channel: 'sms' | 'email'; to: string }> = [];
    const mobile = normaliseMobile(applicant.mobile_phone);
    if (mobile) targets.push({ channel: 'sms', to: mobile });
    const email = normaliseEmail(applicant.email);
    if (email) targets.push({ channel: 'email', to: email });
    for (const { channel, to } of targets) {
      let status: 'pending' | 'skipped' = 'pending';
      let reason: string | null = null;
      let due = event.created_at;
      if (channel === 'sms') {
        const optedOut = await trx.selectFrom('sms_opt_out').select('mobile').where('mobile', '=', to).executeTakeFirst();
        if (optedOut) {
          status = 'skipped';
          reason = '该号码已退订短信';
        } else if (!draft.urgent && inQuietHours(due)) {
          due = quietHoursEnd(due);
          reason = '夜间免打扰（22:00–08:00），08:00 后发送';
        }
      }
      const inserted = await trx
        .insertInto('traveller_message')
        .values({
          user_order_id: order.user_order_id,
          applicant_id: draft.applicant_id,
          order_event_id: event.event_id,
          channel,
          to_address: to,
          template: draft.template,
          params: JSON.stringify(draft.params),
          dedupe_key,
          urgent: draft.urgent ? 1 : 0,
          status,
          next_attempt_at: due,
          claimed_until: null,
          claim_token: null,
          last_error: reason,
          provider_id: null,
          sent_at: null,
          created_at: event.created_at,
        })
        .onConflict((oc) => oc.columns(['applicant_id', 'channel', 'dedupe_key']).doNothing())
        .executeTakeFirst();
      written += Number(inserted.numInsertedOrUpdatedRows ?? 0);
    }
  }
  return written;
}
