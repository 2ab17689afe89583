// The readable order number (issue 27, migration 041): YD + the China date the
// order was placed + its id, zero-padded to at least 6 digits. People see it;
// calls keep taking user_order_id. Payments are YQ…, shipments YQS….

const CHINA_OFFSET_MS = 8 * 3_600_000;

export function orderNumber(userOrderId: number, createdAt: number): string {
  return `${orderNumberPrefix(createdAt)}${String(userOrderId).padStart(6, '0')}`;
}

/** 'YD' + yyyymmdd of createdAt in China time. */
export function orderNumberPrefix(createdAt: number): string {
  return `YD${new Date(createdAt + CHINA_OFFSET_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}
