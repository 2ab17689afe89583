// Field schemas several contracts share: ids as the API accepts them, dates.
import { z } from 'zod';

/** A positive integer id, also accepted as a digit string ("12"). */
export const idField = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));

/** Ids are 32-bit in the database: a larger one is refused here rather than by PostgreSQL. */
export const rowId = idField.pipe(z.number().max(2_147_483_647));

/** A calendar date as sent; the services check it and answer their own Chinese error. */
export const dateText = z.string().max(32).describe('YYYY-MM-DD（北京时间）');

/** A page of a paged list (10 a page). */
export const pageField = z.number().int().min(1).max(100_000).default(1);

export const noPayload = z.object({});
export const noResult = z.object({});
