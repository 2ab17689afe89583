// A call's payload as every entry point reads it: the text rule first
// (common/contracts/text.ts: control characters, line breaks outside the
// contract's multi-line fields, direction controls, unpaired surrogates; every
// string value and key, however deep), then the contract's schema. Both refuse
// with 1001. Used by the signed operations (operation.ts), the pages'
// in-process reads (server/web/*-reads.ts) and, for their form fields, the
// multipart uploads (server/modules/stored-file/multipart.ts, fieldsThenFile).
import type { z } from 'zod';
import type { Contract } from '../../common/contracts/define.ts';
import { findRefusedText, type RefusedText, TEXT_REFUSED_MSG } from '../../common/contracts/text.ts';
import { ErrorCode } from '../../common/error-codes.ts';
import { AppError } from './errors.ts';

export type PayloadParse<C extends Contract> =
  | { success: true; data: z.output<C['payload']> }
  /** `refused` says where the text rule refused (null: the schema refused). */
  | { success: false; error: AppError; refused: RefusedText | null };

/** The 1001 of a refused text. */
export function refusedTextError(): AppError {
  return new AppError(ErrorCode.INVALID_PARAMS, TEXT_REFUSED_MSG);
}

export function parsePayload<C extends Contract>(contract: C, body: unknown): PayloadParse<C> {
  const refused = findRefusedText(body, contract.multiline);
  if (refused) return { success: false, error: refusedTextError(), refused };
  const parsed = contract.payload.safeParse(body);
  if (!parsed.success) return { success: false, error: new AppError(ErrorCode.INVALID_PARAMS), refused: null };
  return { success: true, data: parsed.data as z.output<C['payload']> };
}
