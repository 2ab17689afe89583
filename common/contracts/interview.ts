// The interview calls: the free times of the order's consulate, and choosing
// one per applicant.
import { z } from 'zod';
import { ORDER_EVENT_VALUES } from '../order.ts';
import { defineContract, type ParsedPayloadOf, type ResultOf } from './define.ts';
import { idField } from './fields.ts';
import { ORDER_LIMITS } from './rules.ts';

const slot = z.object({
  interview_slot_id: z.number(),
  start_time: z.string().describe('HH:MM（北京时间）'),
  end_time: z.string(),
  capacity: z.number(),
  remaining: z.number().describe('剩余名额（约满为 0）'),
  full: z.boolean().describe('已约满（页面上不可选）'),
});

const date = z.object({
  date: z.string().describe('YYYY-MM-DD'),
  weekday: z.string().describe('周一 … 周五'),
  provisional: z.boolean().describe('该年的节假日安排尚未公布：按法定节假日推算，日期可能调整'),
  slots: z.array(slot),
});

const choice = z.object({
  interview_slot_id: z.number(),
  slot_date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  bookable: z.boolean().describe('false：该日期已不可预约（已过、超出范围或领馆不办公），需重新选择'),
});

export const interviewSlotList = defineContract({
  path: '/www/order/interview_slot_list',
  payload: z.object({ user_order_id: idField }),
  result: z.object({
    user_order_id: z.number(),
    status: z.string(),
    allowed_events: z
      .array(z.enum(ORDER_EVENT_VALUES))
      .describe('按订单生命周期表，客户此刻可以发起的事件；含 interview_choose 时可以选择或修改面试时间（仅草稿订单）'),
    consulate: z.object({
      consular_district_id: z.number(),
      district_name: z.string().describe('如“上海领区”'),
      consulate_name: z.string(),
      city: z.string(),
      address: z.string(),
    }),
    window: z.object({ from: z.string(), to: z.string() }).nullable().describe('可预约日期范围（含首尾）；出发日期前已无可预约日期时为 null'),
    notice: z.string().nullable().describe('需要告知客户的提示（无可预约日期、节假日安排尚未公布等）'),
    dates: z.array(date),
    applicants: z.array(z.object({ applicant_id: z.number(), name: z.string(), choice: choice.nullable() })),
  }),
});

export const interviewTimeChoose = defineContract({
  path: '/www/order/interview_time_choose',
  payload: z.object({
    user_order_id: idField,
    choices: z
      .array(z.object({ applicant_id: idField, interview_slot_id: idField }))
      .min(1)
      .max(ORDER_LIMITS.maxApplicants)
      .describe('每位申请人一个面试时段：须包含订单的全部申请人，每人一次'),
  }),
  result: z.object({
    user_order_id: z.number(),
    applicants: z.array(
      z.object({ applicant_id: z.number(), interview_slot_id: z.number(), slot_date: z.string(), start_time: z.string(), end_time: z.string() }),
    ),
  }),
});

export const INTERVIEW_CONTRACTS = [interviewSlotList, interviewTimeChoose] as const;

export type InterviewSlotView = z.output<typeof slot>;
export type InterviewDateView = z.output<typeof date>;
export type ApplicantInterviewChoice = z.output<typeof choice>;
export type InterviewSlotListResult = ResultOf<typeof interviewSlotList>;
export type InterviewChooseInput = ParsedPayloadOf<typeof interviewTimeChoose>;
export type InterviewChooseResult = ResultOf<typeof interviewTimeChoose>;
