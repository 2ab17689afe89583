// The operator's list of an order's traveller messages (the workbench's
// 申请人短信与邮件 fold and /admin-api/order/traveller_messages): every SMS and
// e-mail written for the order's applicants, newest first, with its words and
// why it failed, waits or was not sent.
import type { Kysely } from 'kysely';
import { TRAVELLER_MESSAGE_CHANNEL_LABELS, TRAVELLER_MESSAGE_STATUS_LABELS, type TravellerMessagesPanel } from '../../../common/contracts/traveller-message.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import type { Operator } from '../../platform/principal.ts';
import { isTravellerTemplate, renderTravellerText, TRAVELLER_TEMPLATES } from '../order-notices/traveller-messages.ts';

export function createTravellerMessageService(db: Kysely<Database>) {
  return {
    async list(_operator: Operator, userOrderId: number): Promise<TravellerMessagesPanel> {
      // Every operator sees every order (the back office's rule); a missing order is 1801.
      const order = await db.selectFrom('user_order').select('user_order_id').where('user_order_id', '=', userOrderId).executeTakeFirst();
      if (!order) throw new AppError(ErrorCode.ORDER_NOT_FOUND);
      const rows = await db
        .selectFrom('traveller_message')
        .innerJoin('order_applicant', 'order_applicant.applicant_id', 'traveller_message.applicant_id')
        .select([
          'traveller_message.message_id',
          'traveller_message.applicant_id',
          'order_applicant.name',
          'traveller_message.channel',
          'traveller_message.to_address',
          'traveller_message.template',
          'traveller_message.params',
          'traveller_message.status',
          'traveller_message.last_error',
          'traveller_message.attempts',
          'traveller_message.created_at',
          'traveller_message.next_attempt_at',
          'traveller_message.sent_at',
        ])
        .where('traveller_message.user_order_id', '=', userOrderId)
        .orderBy('traveller_message.message_id', 'desc')
        .execute();
      return {
        user_order_id: userOrderId,
        list: rows.map((row) => {
          const template = row.template;
          const known = isTravellerTemplate(template) ? template : null;
          return {
            message_id: row.message_id,
            applicant_id: row.applicant_id,
            applicant_name: row.name,
            channel: row.channel,
            channel_label: TRAVELLER_MESSAGE_CHANNEL_LABELS[row.channel],
            to_address: row.to_address,
            template: row.template,
            template_label: known ? TRAVELLER_TEMPLATES[known].label : row.template,
            text: known ? renderTravellerText(known, JSON.parse(row.params) as Record<string, string>) : '',
            status: row.status,
            status_label: TRAVELLER_MESSAGE_STATUS_LABELS[row.status],
            reason: row.last_error,
            attempts: Number(row.attempts),
            created_at: Number(row.created_at),
            next_attempt_at: row.status === 'pending' ? Number(row.next_attempt_at) : null,
            sent_at: row.sent_at === null ? null : Number(row.sent_at),
          };
        }),
      };
    },
  };
}

export type TravellerMessageService = ReturnType<typeof createTravellerMessageService>;
