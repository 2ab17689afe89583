// Everything app.ts needs of the review module: the queue, the review service
// and their /admin-api operations, on an operator directory.
import type { Kysely } from 'kysely';
import type { AdminFileAccessLog } from '../../../common/contracts/admin-order.ts';
import type { Database } from '../../db/schema.ts';
import type { MaterialService } from '../material/material.service.ts';
import type { OperatorDirectory } from '../operator/directory.ts';
import { createReviewQueue } from './queue.ts';
import { reviewOperations } from './review.routes.ts';
import { createReviewService } from './review.service.ts';

const ACCESS_LOG_PAGE_SIZE = 20;

export function createReviewModule(
  db: Kysely<Database>,
  deps: { now: () => number; operators: OperatorDirectory; material: MaterialService; courierAttentionAfterMs?: number },
) {
  const review = createReviewService(db, deps);
  const queue = createReviewQueue(db, deps);

  /** Who opened which customer file, newest first, with the operators' names (supervisors: the caller checks). */
  async function accessLog(input: { operator_id?: number; user_order_id?: number; page: number }): Promise<AdminFileAccessLog> {
    const { rows, total } = await deps.material.accessLog(
      { operatorId: input.operator_id, userOrderId: input.user_order_id },
      input.page,
      ACCESS_LOG_PAGE_SIZE,
    );
    const names = await deps.operators.names([...new Set(rows.map((row) => row.operator_id))]);
    return {
      list: rows.map((row) => ({ ...row, operator_name: names.get(row.operator_id) ?? `人员${row.operator_id}` })),
      total,
      page: input.page,
      page_size: ACCESS_LOG_PAGE_SIZE,
    };
  }

  const parts = { review, queue, accessLog };
  return { ...parts, operations: reviewOperations(parts) };
}

export type ReviewModule = ReturnType<typeof createReviewModule>;
