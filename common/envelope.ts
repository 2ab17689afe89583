/** The response envelope of spec §7. */
export interface Envelope<T = unknown> {
  ret: number;
  msg: string;
  body: T | null;
}
