// Table types for Kysely. Times are epoch milliseconds (bigint on PostgreSQL,
// integer on SQLite) so both databases compare and sort them the same way.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface EnterpriseTable {
  id: Generated<number>;
  name: string;
  /** 'company' or 'agency'. */
  kind: string;
  contact_name: string | null;
  contact_phone: string | null;
  /** The visa consultant assigned to this enterprise, shown in user_cs_query. */
  consultant_name: string | null;
  consultant_phone: string | null;
  status: number;
  created_at: number;
}

export interface AccountTable {
  id: Generated<number>;
  enterprise_id: number;
  account: string;
  /** scrypt of the SHA-256 hex digest the client sends; never the digest itself. */
  password_hash: string;
  name: string;
  mobile_phone: string | null;
  email: string | null;
  /** 'admin' for the enterprise administrator. */
  role: string;
  status: number;
  created_at: number;
  last_login_at: number | null;
}

export interface AccountSessionTable {
  id: Generated<number>;
  /** SHA-256 hex of the token; the token itself is never stored. */
  token_hash: string;
  account_id: number;
  created_at: number;
  last_seen_at: number;
  absolute_expires_at: number;
  revoked_at: number | null;
  ip: string | null;
  user_agent: string | null;
}

export interface ApiRequestNonceTable {
  request_id: string;
  platform: string;
  seen_at: number;
}

export interface LoginThrottleTable {
  throttle_key: string;
  failures: number;
  window_started_at: number;
  locked_until: number | null;
}

export interface Database {
  enterprise: EnterpriseTable;
  account: AccountTable;
  account_session: AccountSessionTable;
  api_request_nonce: ApiRequestNonceTable;
  login_throttle: LoginThrottleTable;
}

export type Enterprise = Selectable<EnterpriseTable>;
export type Account = Selectable<AccountTable>;
export type NewAccount = Insertable<AccountTable>;
export type AccountUpdate = Updateable<AccountTable>;
export type AccountSession = Selectable<AccountSessionTable>;
