// Payload and result schemas of the interview calls; results are checked
// against the types of common/interview.ts at compile time.
import { z } from 'zod';
import { type InterviewChooseResult, type InterviewSlotListResult } from '../../../common/interview.ts';
import { ORDER_LIMITS } from '../../../common/order.ts';
import { idField } from '../catalogue/catalogue.schemas.ts';

export const interviewSlotListPayload = z.object({ user_order_id: idField });

export const interviewChoosePayload = z.object({
  user_order_id: idField,
  choices: z
    .array(z.object({ applicant_id: idField, interview_slot_id: idField }))
    .min(1)
    .max(ORDER_LIMITS.maxApplicants)
    .describe('每位申请人一个面试时段：须包含订单的全部申请人，每人一次'),
});

const slot = z.object({
  interview_slot_id: z.number(),
  start_time: z.string().describe('HH:MM（北京时间）'),
  end_time: z.string(),
  capacity: z.number(),
  remaining: z.number().describe('剩余名额'),
  full: z.boolean().describe('已约满（页面上不可选）'),
});

export const interviewSlotListResult = z.object({
  user_order_id: z.number(),
  status: z.string(),
  editable: z.boolean().describe('仅草稿订单可以选择或修改'),
  consulate: z.object({
    consular_district_id: z.number(),
    district_name: z.string(),
    consulate_name: z.string(),
    city: z.string(),
    address: z.string(),
  }),
  window: z.object({ from: z.string(), to: z.string() }).nullable().describe('可预约日期范围（含首尾）；出发日期前已无可预约日期时为 null'),
  notice: z.string().nullable().describe('需要告知客户的提示（无可预约日期、节假日安排尚未公布等）'),
  dates: z.array(
    z.object({
      date: z.string(),
      weekday: z.string().describe('周一 … 周五'),
      provisional: z.boolean().describe('该年的节假日安排尚未公布：按法定节假日推算，日期可能调整'),
      slots: z.array(slot),
    }),
  ),
  applicants: z.array(
    z.object({
      applicant_id: z.number(),
      name: z.string(),
      choice: z
        .object({
          interview_slot_id: z.number(),
          slot_date: z.string(),
          start_time: z.string(),
          end_time: z.string(),
          bookable: z.boolean().describe('false：该日期已不可预约（已过、超出范围或领馆不办公），需重新选择'),
        })
        .nullable(),
    }),
  ),
}) satisfies z.ZodType<InterviewSlotListResult>;

export const interviewChooseResult = z.object({
  user_order_id: z.number(),
  applicants: z.array(
    z.object({ applicant_id: z.number(), interview_slot_id: z.number(), slot_date: z.string(), start_time: z.string(), end_time: z.string() }),
  ),
}) satisfies z.ZodType<InterviewChooseResult>;
