// Field schemas several contracts share: ids as the API accepts them, dates.
import { z } from 'zod';

/** The largest id a row can have: ids are 32-bit in the database (serial / integer). */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * A positive integer id, also accepted as a digit string ("12"). A larger one than any row can
 * have is refused here (1001) rather than by PostgreSQL ("value out of range for type integer",
 * which answered 500: found by the text fuzz, issue 23).
 */
export const idField = z
  .union([
    z.number().int().positive(),
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/)
      .transform(Number),
  ])
  .pipe(z.number().int().positive().max(MAX_ROW_ID));

/** A row's id (the same as idField since every id is bounded; kept for the contracts that name it). */
export const rowId = idField;

/** A calendar date as sent; the services check it and answer their own Chinese error. */
export const dateText = z.string().max(32).describe('YYYY-MM-DD（北京时间）');

/** A page of a paged list (10 a page). */
export const pageField = z.number().int().min(1).max(100_000).default(1);

export const noPayload = z.object({});
export const noResult = z.object({});
