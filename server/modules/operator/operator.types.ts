import type { OperatorRole } from '../../platform/principal.ts';

/** The logged-in operator as the rest of the server sees it (request.operator). */
export interface AuthenticatedOperator {
  operatorId: number;
  role: OperatorRole;
  account: string;
  name: string;
  sessionId: number;
}
