// The visa photo check (issue 28): its verdict as the upload page and the
// review show it, and the customer's choice between the processed photo and
// the original.
import { z } from 'zod';
import { PHOTO_VERDICTS } from '../photo-check.ts';
import { defineContract, type ResultOf } from './define.ts';
import { rowId } from './fields.ts';

export const photoCheckView = z.object({
  file_id: z.number(),
  verdict: z.enum(PHOTO_VERDICTS).describe('pass 合格；fixed 可自动处理（客户选择处理后或原照片）；fail 不合格；error 未能检测'),
  verdict_label: z.string(),
  problems: z.array(z.string()).describe('不合格的原因（中文，每条一句）'),
  fixes: z.array(z.string()).describe('自动处理做了什么（中文）'),
  choice: z.enum(['original', 'processed']).nullable().describe('客户的选择；null = 尚未选择（文件仍是原照片）'),
  processed_preview: z.string().nullable().describe('处理后的照片（JPEG data: URL），仅在尚未选择时给出'),
  rule: z.object({ color_name: z.string(), width: z.number(), height: z.number() }).describe('检测依据：背景颜色与尺寸（mm）'),
  checked_at: z.number(),
});

export const photoChoice = defineContract({
  path: '/www/order/photo_choice',
  payload: z.object({
    user_order_id: rowId,
    file_id: rowId,
    choice: z.enum(['original', 'processed']).describe('processed = 使用处理后的照片（替换文件内容）；original = 保留原照片'),
  }),
  result: z.object({ check: photoCheckView }),
});

export const PHOTO_CHECK_CONTRACTS = [photoChoice] as const;
export type PhotoChoiceResult = ResultOf<typeof photoChoice>;
