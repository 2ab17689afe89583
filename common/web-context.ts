// What the server hands to the page loaders (React Router's load context).
// Types only: the web client never imports server code.

/** Values the browser may see; the web platform's signing pair is a client secret by nature. */
export interface PublicConfig {
  appEnv: string;
  apiBaseUrl: string;
  platform: string;
  accessKey: string;
  secret: string;
  analyticsScriptUrl: string | null;
}

export interface UserInfo {
  account_id: number;
  account: string;
  name: string;
  mobile_phone: string | null;
  email: string | null;
  role: string;
  last_login_at: number | null;
  enterprise: { enterprise_id: number; name: string; kind: string; kind_label: string };
}

export interface WebLoadContext {
  publicConfig: PublicConfig;
  /** The user of the `token` cookie, or null for a guest or an expired session. */
  currentUser(): Promise<UserInfo | null>;
  /** Logs a page error on the request's logger, so the line carries its request id. */
  logError(error: unknown): void;
}

declare module 'react-router' {
  interface AppLoadContext extends WebLoadContext {}
}
