// The issued e-invoices as a kind of stored file (server/modules/stored-file):
// a PDF only (checked by its first bytes), at most 5 MB, uploaded by an
// operator when issuing. The file's user_order_id is the invoice's first
// order, so the customer's route serves it to that order's enterprise only,
// and only once the issue attached it to its invoice. Invoices are tax
// records: retention does not purge them (no purger is registered for them).
import { INVOICE_LIMITS } from '../../../common/invoice.ts';
import { defineStoredFileKind } from '../stored-file/kind.ts';

export const invoiceFiles = defineStoredFileKind({
  name: 'invoice',
  table: 'invoice_file',
  idColumn: 'file_id',
  contentTypes: ['application/pdf'],
  maxBytes: INVOICE_LIMITS.fileMaxBytes,
  customerPath: '/files/invoice/',
  adminPath: '/admin-files/invoice/',
  customerCopy: { etag: false, framed: true },
  shownToCustomer: (file) => file.invoice_id !== null,
  retention: { name: 'invoice_file' },
});
