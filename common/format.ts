// Number formatting of spec §9: one formatter for each kind of figure.

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
