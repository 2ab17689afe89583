// The travellers' own SMS and e-mails of an order (issue 29, part 4), as the
// back office's workbench lists them: who, by which channel, which approved
// template with what words, and whether it was sent, is waiting (quiet hours,
// rate limit, retry), failed (the provider's reason) or was skipped (opt-out).
import { z } from 'zod';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

export const TRAVELLER_MESSAGE_STATUS_VALUES = ['pending', 'sending', 'sent', 'failed', 'skipped'] as const;
export const TRAVELLER_MESSAGE_STATUS_LABELS: Record<(typeof TRAVELLER_MESSAGE_STATUS_VALUES)[number], string> = {
  pending: '待发送',
  sending: '发送中',
  sent: '已发送',
  failed: '发送失败',
  skipped: '未发送',
};
export const TRAVELLER_MESSAGE_CHANNEL_LABELS = { sms: '短信', email: '邮件' } as const;

export const travellerMessageView = z.object({
  message_id: z.number(),
  applicant_id: z.number(),
  applicant_name: z.string(),
  channel: z.enum(['sms', 'email']),
  channel_label: z.string().describe('短信 / 邮件'),
  to_address: z.string().describe('申请人本人的手机号或邮箱'),
  template: z.string().describe('审核通过的模板，如 appointment（面试/录指纹预约）'),
  template_label: z.string(),
  text: z.string().describe('模板与变量组成的内容'),
  status: z.enum(TRAVELLER_MESSAGE_STATUS_VALUES),
  status_label: z.string(),
  reason: z.string().nullable().describe('失败、未发送或等待的原因（如服务商的错误码、已退订、夜间免打扰）'),
  attempts: z.number(),
  created_at: z.number(),
  next_attempt_at: z.number().nullable().describe('待发送时下次发送的时间'),
  sent_at: z.number().nullable(),
});

export const adminTravellerMessages = defineContract({
  path: '/admin-api/order/traveller_messages',
  payload: z.object({ user_order_id: rowId }),
  result: z.object({
    user_order_id: z.number(),
    list: z.array(travellerMessageView).describe('最新的在前'),
  }),
});

export const TRAVELLER_MESSAGE_CONTRACTS = [adminTravellerMessages] as const;
export type TravellerMessagesPanel = ResultOf<typeof adminTravellerMessages>;
