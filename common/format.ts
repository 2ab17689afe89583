// Number and time formatting of spec §9: one formatter for each kind of
// figure, the same on the server and in any browser's time zone.

/** Cents → '￥1299' or '￥1299.50'. */
export function formatPrice(cents: number): string {
  const yuan = cents / 100;
  return `￥${Number.isInteger(yuan) ? String(yuan) : yuan.toFixed(2)}`;
}

/** pass_rate (e.g. 9850) → '98.5%'. */
export function formatPassRate(passRate: number): string {
  return `${(passRate / 100).toFixed(1)}%`;
}

/** sum_score ÷ count to 1 decimal; 5.0 when sum_score is 0 (no reviews yet). */
export function formatAverageRating(sumScore: number, count: number): string {
  if (!sumScore || !count) return '5.0';
  return (sumScore / count).toFixed(1);
}

/** Width of the filled part of a star bar: score × 20%. */
export function starFillPercent(score: number): string {
  const clamped = Math.min(Math.max(score, 0), 5);
  return `${clamped * 20}%`;
}

// ── Times (China time, UTC+8 all year) ────────────────────────────────────

const CHINA_OFFSET_MS = 8 * 3_600_000;
const MINUTE_MS = 60_000;

/** Epoch ms → 'YYYY-MM-DD HH:mm' in China time, the same on the server and in any browser zone. */
export function formatDateTime(epochMs: number): string {
  const iso = new Date(epochMs + CHINA_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/**
 * The countdown of an unpaid order: 'x小时x分后自动取消'. Minutes are rounded
 * up, so the text never claims less time than is left.
 */
export function expiryText(expiresAt: number, now: number): string {
  const left = expiresAt - now;
  if (left <= 0) return '即将自动取消';
  const totalMinutes = Math.ceil(left / MINUTE_MS);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes}分后自动取消`;
  return `${hours}小时${minutes}分后自动取消`;
}
