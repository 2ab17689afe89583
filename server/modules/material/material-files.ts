// The customers' uploaded materials and visa photos as a kind of stored file
// (server/modules/stored-file): JPEG, PNG or PDF (a photo: JPEG or PNG only,
// material.service.ts), seen by their order's enterprise and by operators; the
// customer's pages show them again and again, so their copy is revalidated by
// ETag; deleted with their rows RETENTION_DAYS after the order finished.
import { MATERIAL_CONTENT_TYPES } from '../../../common/material.ts';
import { defineStoredFileKind } from '../stored-file/kind.ts';

export const materialFiles = defineStoredFileKind({
  name: 'material',
  table: 'order_material_file',
  idColumn: 'file_id',
  contentTypes: MATERIAL_CONTENT_TYPES,
  customerPath: '/files/material/',
  adminPath: '/admin-files/material/',
  customerCopy: { etag: true, framed: false },
  retention: { name: 'material_file' },
});
