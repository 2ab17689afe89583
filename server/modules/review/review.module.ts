// Everything app.ts needs of the review module: the queue, the review service
// and their /admin-api operations, on an operator directory.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MaterialService } from '../material/material.service.ts';
import type { OperatorDirectory } from './operators.ts';
import { createReviewQueue } from './queue.ts';
import { reviewOperations } from './review.routes.ts';
import { createReviewService } from './review.service.ts';

export function createReviewModule(db: Kysely<Database>, deps: { now: () => number; operators: OperatorDirectory; material: MaterialService }) {
  const review = createReviewService(db, deps);
  const queue = createReviewQueue(db, deps);
  return { review, queue, operations: reviewOperations({ review, queue, material: deps.material, operators: deps.operators }) };
}

export type ReviewModule = ReturnType<typeof createReviewModule>;
