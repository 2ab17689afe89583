/** The logged-in account as the rest of the server sees it. */
export interface AuthenticatedAccount {
  accountId: number;
  enterpriseId: number;
  account: string;
  sessionId: number;
  /** The colleague's role in the enterprise (common/team.ts): admin, agent or finance. */
  role: string;
}
