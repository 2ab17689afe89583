// Text put into HTML (e-mails, the payment sandbox's page): the five special
// characters escaped. Here rather than in one module so the notices' templates
// (order-notices/) and the e-mails of other modules share it without importing
// each other.
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}
