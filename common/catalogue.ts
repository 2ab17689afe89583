// The visa catalogue's rules and labels shared by both sides (spec §3). The
// calls' shapes are the contracts in common/contracts/catalogue.ts.

/**
 * The channel value that also means "delisted" (spec §3, §4 "Product
 * availability"): products withdrawn from sale through the catalogue's
 * delisting channel keep their page but cannot be ordered.
 */
export const DELISTED_CHANNEL = 99;
/** status value of a delisted product. */
export const DELISTED_STATUS = 1;

export function isDelisted(product: { status: number; channel: number }): boolean {
  return product.status === DELISTED_STATUS || product.channel === DELISTED_CHANNEL;
}

export const ENTRY_LABELS: Record<number, string> = { 0: '单次入境', 1: '两次入境', 2: '多次入境' };

/** Spec 2.2: country, visa_type, entry label, product_special_desc. */
export function productTitle(product: { country: string; visa_type: string; entry_times: number; product_special_desc: string }): string {
  return [product.country, product.visa_type, ENTRY_LABELS[product.entry_times] ?? '', product.product_special_desc].filter(Boolean).join(' · ');
}

/** Mini-program page and scene of the guest QR popup (spec §7). */
export const QRCODE_PAGE = 'pages/visa/visa-detail/visa-detail';
export function qrcodeScene(visaProductId: number): string {
  return `v=${visaProductId}&u=official`;
}
