// Uploaded materials: the checklist with its files, upload (new or replace),
// delete, the effect date, and files for serving. Rules: docs/order-rules.md
// ("Uploaded materials") on top of the lifecycle design.
//
// The files are a kind of stored file (material-files.ts): the stored-file
// module checks an upload by content and size while storing it; then one
// short transaction records it (order row touched under its guard, file row,
// audit event). A refusal after the bytes were stored, or a failed commit,
// deletes the stored object; a replaced or deleted file's old object is
// deleted after the commit (a crash in between leaves an orphan object, never
// a row without its object).
import type { Kysely } from 'kysely';
import type {
  ApplicantMaterials,
  ChecklistItem,
  EffectDateResult,
  MaterialDeleteResult,
  MaterialFileView,
  MaterialListResult,
  MaterialUploadResult,
  ReuploadSubmitResult,
} from '../../../common/contracts/material.ts';
import { IDENTITIES as APPLICANT_IDENTITIES } from '../../../common/constants.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { MATERIAL_LIMITS, MATERIAL_REVIEW_STATUSES, type MaterialEditMode, PHOTO_CONTENT_TYPES, photoColorName } from '../../../common/material.ts';
import { isCalendarDate, isDraft, type OrderStatus, type OrderStep, statusLabel, stepLabel } from '../../../common/order.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { allowedEvents, checkAllowed, createOrderLifecycle, eventsFrom, type OrderRow, placeOf } from '../order/lifecycle.ts';
import type { Customer } from '../../platform/principal.ts';
import { type AccessLogFilter, fileAccessLogPage } from '../stored-file/access-log.ts';
import { createStoredFiles, type FileViewer, type StoredFileDeps, type StoredUpload, type UploadSource } from '../stored-file/stored-files.ts';
import { materialFiles } from './material-files.ts';
import { createMaterialRepository, type MaterialFileRow } from './material.repository.ts';
import { createPhotoChecks, type PhotoCheckRun } from '../photo-check/photo-checks.ts';
import type { FaceDetector } from '../photo-check/face-detector.ts';
import type { PhotoCheckView } from '../../../common/photo-check.ts';
import { missingMaterials } from './material-progress.ts';

export interface UploadInput {
  user_order_id: number;
  applicant_id: number;
  /** A material of the applicant's checklist, or null for the visa photo. */
  material_id: number | null;
  replace_file_id: number | null;
}

export type MaterialServiceDeps = StoredFileDeps & { photoDetector?: FaceDetector };

/** The visa photo: JPEG or PNG only, refused with its own code. */
const PHOTO = { types: PHOTO_CONTENT_TYPES, refused: () => new AppError(ErrorCode.MATERIAL_PHOTO_TYPE) };

/**
 * Which page edits the files: the table's places of material_upload (a draft,
 * or processing:reupload_needed) — a draft edits everything, a re-upload only
 * the items holding a no-pass file. Elsewhere nothing changes.
 */
function editMode(order: { status: OrderStatus; step: OrderStep | null }): MaterialEditMode {
  if (!eventsFrom(placeOf(order), 'customer').includes('material_upload')) return 'closed';
  return isDraft(order) ? 'draft' : 'reupload';
}

export function fileView(row: MaterialFileRow): MaterialFileView {
  return {
    file_id: row.file_id,
    kind: row.kind,
    material_id: row.material_id,
    file_name: row.file_name,
    content_type: row.content_type,
    size: row.size_bytes,
    url: materialFiles.urlOf('customer', { id: row.file_id, sha256: row.sha256 }),
    review_status: row.review_status,
    review_status_label: MATERIAL_REVIEW_STATUSES[row.review_status],
    no_pass_memo: row.no_pass_memo,
    created_at: row.created_at,
    reused_from_traveller: row.reused_document_id !== null,
  };
}

/** What an upload will do, decided on the order as it stands (again on every retry). */
interface UploadPlan {
  mode: Exclude<MaterialEditMode, 'closed'>;
  applicant: { applicant_id: number; name: string };
  isPhoto: boolean;
  materialName: string;
  replacing: MaterialFileRow | null;
}

export function createMaterialService(db: Kysely<Database>, deps: MaterialServiceDeps) {
  const repo = createMaterialRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);
  const storedFiles = createStoredFiles(db, materialFiles, deps);
  // The visa photo check (issue 28): run on every photo upload, before it is recorded.
  const photoChecks = createPhotoChecks(db, { storage: deps.storage, now: deps.now, log: deps.log, detector: deps.photoDetector });

  /** The guards of an upload that depend on the order and its files; throws the refusal. */
  async function planUpload(customer: Customer, order: OrderRow, input: UploadInput): Promise<UploadPlan> {
    // The table's refusal (cancelled, expired, locked in this state) before any input is looked at.
    checkAllowed(input.replace_file_id ? 'material_replace' : 'material_upload', order, customer, deps.now());
    const mode = editMode(order) as UploadPlan['mode'];
    const applicant = await repo.applicant(order.user_order_id, input.applicant_id);
    if (!applicant) throw new AppError(ErrorCode.MATERIAL_APPLICANT_NOT_FOUND);
    const isPhoto = input.material_id === null;
    let materialName = '签证照片';
    if (isPhoto) {
      if (order.visa_photo_id === 0) throw new AppError(ErrorCode.MATERIAL_PHOTO_NOT_NEEDED);
    } else {
      const material = await repo.material(order.user_order_id, input.material_id!);
      if (!material || material.identity_id !== applicant.identity_id) throw new AppError(ErrorCode.MATERIAL_NOT_IN_CHECKLIST);
      if (material.attr !== 0) throw new AppError(ErrorCode.MATERIAL_NOT_ELECTRONIC);
      materialName = material.name;
    }
    const existing = await repo.filesOf(order.user_order_id, applicant.applicant_id, input.material_id);
    let replacing: MaterialFileRow | null = null;
    if (input.replace_file_id !== null) {
      replacing = existing.find((file) => file.file_id === input.replace_file_id) ?? null;
      if (!replacing) throw new AppError(ErrorCode.MATERIAL_FILE_NOT_FOUND, '要替换的文件不存在');
    } else if (isPhoto && existing.length > 0) {
      // One photo per applicant: a new one replaces it.
      replacing = existing[0]!;
    }
    if (mode === 'reupload') {
      const noPass = replacing ? replacing.review_status === 'no_pass' : existing.some((file) => file.review_status === 'no_pass');
      if (!noPass) throw new AppError(ErrorCode.MATERIAL_ALREADY_REVIEWED);
    }
    if (!replacing && existing.length >= MATERIAL_LIMITS.maxFilesPerMaterial) throw new AppError(ErrorCode.MATERIAL_TOO_MANY_FILES);
    return { mode, applicant, isPhoto, materialName, replacing };
  }

  /**
   * A photo checked against the order's photo rule before it is recorded (issue 28); bytes that
   * are not a picture are refused (`refuse` first drops a new upload's object). Null without a rule.
   */
  async function checkPhoto(order: OrderRow, storageKey: string, refuse: () => Promise<unknown>): Promise<PhotoCheckRun | null> {
    if (order.photo_color === null || order.photo_width === null || order.photo_height === null) return null;
    const bytes = await photoChecks.bytesOf(storageKey);
    if (!bytes) return null;
    const check = await photoChecks.run(bytes, { color: order.photo_color, width: order.photo_width, height: order.photo_height });
    const refusal = check.analysis?.refusal;
    if (refusal) {
      await refuse();
      throw new AppError(refusal === 'pixels' ? ErrorCode.PHOTO_TOO_MANY_PIXELS : ErrorCode.PHOTO_UNREADABLE);
    }
    return check;
  }

  /**
   * Records a stored file for an item or the photo (a new row or the replaced one), in the order's
   * lifecycle change decided again on the order as it is now: it may have been confirmed,
   * cancelled or reviewed meanwhile. The replaced file's object is dropped after the commit
   * (kept while another row still points at it: a traveller's document).
   */
  async function record(
    customer: Customer,
    order: OrderRow,
    input: UploadInput,
    upload: StoredUpload,
    reusedDocumentId: number | null,
    check: PhotoCheckRun | null,
  ): Promise<MaterialUploadResult> {
    let fileId = 0;
    let replaced: MaterialFileRow | null = null;
    let staleProcessed: string | null = null;
    // Decided again on the order as it is now: it may have been confirmed, cancelled or reviewed meanwhile.
    await lifecycle.change(customer, order.user_order_id, async (fresh, at) => {
      const plan = await planUpload(customer, fresh, input);
      replaced = plan.replacing;
      const content = { ...upload, account_id: customer.accountId, created_at: at, reused_document_id: reusedDocumentId };
      return {
        event: plan.replacing ? 'material_replace' : 'material_upload',
        // Uploads of one order serialise on its row instead of failing each other.
        concurrency: 'place',
        within: async (trx) => {
          if (plan.replacing) {
            // The replaced photo's check goes with it (its processed photo is deleted after the commit).
            if (plan.isPhoto) staleProcessed = await photoChecks.forget(trx, plan.replacing.file_id);
            if (!(await repo.replaceFile(trx, plan.replacing.file_id, plan.replacing.storage_key, content))) throw new AppError(ErrorCode.ORDER_CONFLICT);
            fileId = plan.replacing.file_id;
            return;
          }
          // Re-counted under the order row's lock: two parallel uploads cannot both take the
          // last place, nor both become an applicant's only photo.
          const count = await repo.countFiles(trx, fresh.user_order_id, plan.applicant.applicant_id, input.material_id);
          if (plan.isPhoto && count > 0) throw new AppError(ErrorCode.ORDER_CONFLICT);
          if (count >= MATERIAL_LIMITS.maxFilesPerMaterial) throw new AppError(ErrorCode.MATERIAL_TOO_MANY_FILES);
          fileId = await repo.insertFile(trx, {
            ...content,
            user_order_id: fresh.user_order_id,
            applicant_id: plan.applicant.applicant_id,
            material_id: input.material_id,
            kind: plan.isPhoto ? 'photo' : 'material',
          });
        },
        detail: () => ({
          file_id: fileId,
          applicant_id: plan.applicant.applicant_id,
          applicant_name: plan.applicant.name,
          material_id: input.material_id,
          material_name: plan.materialName,
          file_name: upload.file_name,
          content_type: upload.content_type,
          size: upload.size_bytes,
          sha256: upload.sha256,
          ...(reusedDocumentId !== null ? { reused_document_id: reusedDocumentId } : {}),
          ...(plan.replacing ? { replaced_file_name: plan.replacing.file_name, replaced_sha256: plan.replacing.sha256 } : {}),
        }),
      };
    });
    const old = replaced as MaterialFileRow | null;
    if (old) await storedFiles.drop(old.storage_key, 'replaced');
    await photoChecks.drop(staleProcessed);

    const row = await repo.file(order.user_order_id, fileId);
    let photoCheck: PhotoCheckView | null = null;
    if (check) {
      await photoChecks.record({ file_id: fileId, user_order_id: order.user_order_id, sha256: upload.sha256 }, check);
      photoCheck = (await photoChecks.ofOrder(order.user_order_id, true)).get(fileId) ?? null;
    }
    return { file: fileView(row!), replaced: old !== null, missing: await missingMaterials(db, order.user_order_id), photo_check: photoCheck };
  }

  return {
    /** The files as a kind of stored file (their routes). */
    storedFiles,

    async list(customer: Customer, userOrderId: number): Promise<MaterialListResult> {
      const order = await lifecycle.current(customer, userOrderId);
      const mode = editMode(order);
      const [applicants, materials, files, missing] = await Promise.all([
        repo.applicants(userOrderId),
        repo.materials(userOrderId),
        repo.files(userOrderId),
        missingMaterials(db, userOrderId),
      ]);
      const checks = order.visa_photo_id !== 0 ? await photoChecks.ofOrder(userOrderId, mode !== 'closed') : new Map<number, PhotoCheckView>();
      // The photo rule the order was placed with (issue 26), not the product's current one.
      const photo =
        order.visa_photo_id !== 0 && order.photo_color !== null && order.photo_width !== null && order.photo_height !== null
          ? { visa_photo_id: order.visa_photo_id, name: order.photo_name ?? '', color: order.photo_color, width: order.photo_width, height: order.photo_height }
          : null;
      const checklistItem = (m: (typeof materials)[number]): ChecklistItem => ({
        material_id: m.material_id,
        name: m.name,
        attention: m.attention,
        sample: m.sample,
        required: m.required === 1,
      });
      const editable = (own: MaterialFileRow[]) => mode === 'draft' || (mode === 'reupload' && own.some((f) => f.review_status === 'no_pass'));

      return {
        user_order_id: order.user_order_id,
        status: order.status,
        status_label: statusLabel(order.status),
        step: order.step,
        mode,
        allowed_events: allowedEvents(order, customer, deps.now()),
        need_interview: order.need_interview,
        order_date: order.order_date,
        departure_date: order.departure_date,
        effect_date: order.effect_date,
        photo_spec: photo
          ? {
              visa_photo_id: photo.visa_photo_id,
              name: photo.name,
              width: photo.width,
              height: photo.height,
              color: photo.color,
              color_name: photoColorName(photo.color),
            }
          : null,
        max_file_bytes: storedFiles.maxBytes,
        max_files_per_material: MATERIAL_LIMITS.maxFilesPerMaterial,
        missing,
        applicants: applicants.map((applicant): ApplicantMaterials => {
          const own = materials.filter((m) => m.identity_id === applicant.identity_id);
          const filesOf = (materialId: number | null) =>
            files.filter(
              (f) =>
                f.applicant_id === applicant.applicant_id && (materialId === null ? f.kind === 'photo' : f.kind === 'material' && f.material_id === materialId),
            );
          const photoFiles = filesOf(null);
          return {
            applicant_id: applicant.applicant_id,
            name: applicant.name,
            identity_id: applicant.identity_id,
            identity_label: APPLICANT_IDENTITIES[applicant.identity_id as keyof typeof APPLICANT_IDENTITIES] ?? '',
            electronic: own
              .filter((m) => m.attr === 0)
              .map((m) => {
                const itemFiles = filesOf(m.material_id);
                return { ...checklistItem(m), files: itemFiles.map(fileView), editable: editable(itemFiles) };
              }),
            mailed: own.filter((m) => m.attr === 1).map(checklistItem),
            bring: own.filter((m) => m.attr === 2).map(checklistItem),
            photo:
              order.visa_photo_id !== 0
                ? {
                    required: true,
                    editable: editable(photoFiles),
                    files: photoFiles.map(fileView),
                    check: (photoFiles[0] && checks.get(photoFiles[0].file_id)) ?? null,
                  }
                : null,
          };
        }),
      };
    },

    async upload(customer: Customer, input: UploadInput, source: UploadSource): Promise<MaterialUploadResult> {
      const order = await lifecycle.current(customer, input.user_order_id);
      const { isPhoto } = await planUpload(customer, order, input);

      // The bytes: type from the first ones, then streamed to storage under a new key.
      const upload = await storedFiles.store(source, isPhoto ? PHOTO : undefined);
      const check = isPhoto ? await checkPhoto(order, upload.storage_key, () => storedFiles.drop(upload.storage_key, 'refused photo')) : null;
      return storedFiles.keep(upload, () => record(customer, order, input, upload, null, check));
    },

    /**
     * A traveller's saved document taken for an item or the photo (modules/traveller): the same
     * stored object, recorded like an upload with the document it came from. The caller checked
     * the document (its enterprise, its type, that it is still usable); the order's rules are here,
     * and a saved photo is checked against this order's photo rule like an upload (never dropped:
     * the traveller keeps it).
     */
    async reuse(customer: Customer, input: UploadInput, stored: StoredUpload, documentId: number): Promise<MaterialUploadResult> {
      const order = await lifecycle.current(customer, input.user_order_id);
      const { isPhoto } = await planUpload(customer, order, input);
      if (isPhoto && !PHOTO.types.includes(stored.content_type)) throw PHOTO.refused();
      const check = isPhoto ? await checkPhoto(order, stored.storage_key, async () => undefined) : null;
      return record(customer, order, input, stored, documentId, check);
    },

    async remove(customer: Customer, userOrderId: number, fileId: number): Promise<MaterialDeleteResult> {
      let removed: MaterialFileRow | null = null;
      let staleProcessed: string | null = null;
      await lifecycle.change(customer, userOrderId, async (order) => {
        checkAllowed('material_delete', order, customer, deps.now());
        const mode = editMode(order);
        const file = await repo.file(userOrderId, fileId);
        if (!file) throw new AppError(ErrorCode.MATERIAL_FILE_NOT_FOUND);
        if (mode === 'reupload' && file.review_status !== 'no_pass') throw new AppError(ErrorCode.MATERIAL_ALREADY_REVIEWED);
        removed = file;
        return {
          event: 'material_delete',
          concurrency: 'place',
          within: async (trx) => {
            if (file.kind === 'photo') staleProcessed = await photoChecks.forget(trx, fileId);
            if (!(await repo.deleteFile(trx, fileId, file.storage_key))) throw new AppError(ErrorCode.MATERIAL_FILE_NOT_FOUND);
          },
          detail: {
            file_id: fileId,
            applicant_id: file.applicant_id,
            material_id: file.material_id,
            kind: file.kind,
            file_name: file.file_name,
            sha256: file.sha256,
          },
        };
      });
      await storedFiles.drop((removed as MaterialFileRow | null)!.storage_key, 'deleted');
      await photoChecks.drop(staleProcessed);
      return { file_id: fileId, missing: await missingMaterials(db, userOrderId) };
    },

    /**
     * The customer keeps the processed photo (the file's content becomes it: a replace, recorded as one)
     * or the original (the processed one is deleted). Once: a new upload starts again.
     */
    async choosePhoto(customer: Customer, userOrderId: number, fileId: number, choice: 'original' | 'processed'): Promise<PhotoCheckView> {
      let dropKey: string | null = null;
      await lifecycle.change(customer, userOrderId, async (order, at) => {
        checkAllowed('material_replace', order, customer, at);
        const file = await repo.file(userOrderId, fileId);
        const check = file && file.kind === 'photo' ? await photoChecks.row(db, fileId) : undefined;
        if (!file || !check || check.verdict !== 'fixed' || check.user_order_id !== userOrderId) throw new AppError(ErrorCode.PHOTO_CHECK_NOT_FOUND);
        if (check.choice !== null || !check.processed_key) throw new AppError(ErrorCode.PHOTO_CHOICE_CLOSED);
        if (editMode(order) === 'reupload' && file.review_status !== 'pending') throw new AppError(ErrorCode.MATERIAL_ALREADY_REVIEWED);
        const processedKey = check.processed_key;
        if (choice === 'original') {
          dropKey = processedKey;
          return {
            event: 'material_replace',
            concurrency: 'place',
            within: async (trx) => photoChecks.setChoice(trx, fileId, 'original'),
            detail: { file_id: fileId, applicant_id: file.applicant_id, photo_choice: 'original', file_name: file.file_name },
          };
        }
        dropKey = file.storage_key;
        const fileName = `${file.file_name.replace(/\.[^.]*$/, '')}（已处理）.jpg`.slice(-MATERIAL_LIMITS.fileNameMaxLength);
        return {
          event: 'material_replace',
          concurrency: 'place',
          within: async (trx) => {
            const content = {
              storage_key: processedKey,
              file_name: fileName,
              content_type: 'image/jpeg' as const,
              size_bytes: check.processed_size ?? 0,
              sha256: check.processed_sha256 ?? '',
              account_id: customer.accountId,
              created_at: at,
            };
            if (!(await repo.replaceFile(trx, fileId, file.storage_key, content))) throw new AppError(ErrorCode.ORDER_CONFLICT);
            await photoChecks.setChoice(trx, fileId, 'processed');
          },
          detail: {
            file_id: fileId,
            applicant_id: file.applicant_id,
            photo_choice: 'processed',
            file_name: fileName,
            replaced_file_name: file.file_name,
            replaced_sha256: file.sha256,
            sha256: check.processed_sha256,
          },
        };
      });
      await photoChecks.drop(dropKey);
      const view = (await photoChecks.ofOrder(userOrderId, false)).get(fileId);
      return view!;
    },

    /** The date the visa should take effect: from the order date to the departure date; null = the departure date. */
    async setEffectDate(customer: Customer, userOrderId: number, value: string | null): Promise<EffectDateResult> {
      const wanted = value === null || value.trim() === '' ? null : value.trim();
      await lifecycle.change(customer, userOrderId, (order) => {
        checkAllowed('effect_date', order, customer, deps.now());
        if (wanted !== null) {
          if (!isCalendarDate(wanted)) throw new AppError(ErrorCode.MATERIAL_EFFECT_DATE_INVALID);
          if (wanted < order.order_date) throw new AppError(ErrorCode.MATERIAL_EFFECT_DATE_INVALID, `生效日期不能早于办理日期（${order.order_date}）`);
          if (wanted > order.departure_date) throw new AppError(ErrorCode.MATERIAL_EFFECT_DATE_INVALID, `生效日期不能晚于出发日期（${order.departure_date}）`);
        }
        // The same value again writes nothing.
        if (wanted === order.effect_date) return null;
        return { event: 'effect_date', set: { effect_date: wanted }, detail: { from: order.effect_date, to: wanted } };
      });
      return { effect_date: wanted };
    },

    /** A stored file the viewer may see, or null (missing and forbidden look the same); an operator's open is logged. */
    fileFor: (viewer: FileViewer, fileId: number) => storedFiles.fileFor(viewer, fileId),

    /** Who opened which customer file, newest first, with the names of materials (supervisors; the route checks the role). */
    accessLog: (filter: AccessLogFilter, page: number, pageSize: number) => fileAccessLogPage(db, materialFiles, filter, page, pageSize),

    /**
     * Re-upload done (reupload_needed → material_review): no no-pass file is
     * left (each replaced, or deleted with its item still complete), nothing
     * required is missing, and something new waits for review. The order's
     * review round goes up by one; replaced files are already pending.
     */
    async submitReupload(customer: Customer, userOrderId: number): Promise<ReuploadSubmitResult> {
      const state = await lifecycle.change(customer, userOrderId, async (order, at) => {
        checkAllowed('reupload_submit', order, customer, at);
        const files = await repo.files(userOrderId);
        if (files.some((file) => file.review_status === 'no_pass')) throw new AppError(ErrorCode.REUPLOAD_NO_PASS_LEFT);
        const missing = await missingMaterials(db, userOrderId);
        if (missing.length > 0) {
          throw new AppError(ErrorCode.REUPLOAD_MATERIALS_MISSING, `资料尚未上传完整：${missing.map((m) => `${m.applicant_name}的${m.name}`).join('、')}`);
        }
        const pending = files.filter((file) => file.review_status === 'pending').length;
        if (pending === 0) throw new AppError(ErrorCode.REUPLOAD_NOTHING_REPLACED);
        return { event: 'reupload_submit', set: { review_round: order.review_round + 1 }, detail: { round: order.review_round + 1, pending_files: pending } };
      });
      return {
        user_order_id: userOrderId,
        status: state.status,
        step: state.step,
        step_label: stepLabel(state.step),
        review_round: (await lifecycle.current(customer, userOrderId)).review_round,
      };
    },
  };
}

export type MaterialService = ReturnType<typeof createMaterialService>;
