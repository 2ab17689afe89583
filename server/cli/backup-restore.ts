// Backups of the embedded deployment (SQLite file + uploads on local disk) and
// their restore; `npm run backup -- DIR` and `npm run restore -- DIR` are thin
// wrappers (backup.ts, restore.ts). README "Backups" for the operator's view.
//
// A backup is a folder:
//   database.sqlite   the database, copied with SQLite's online backup API
//   uploads/          the upload store's objects (materials/<2 hex>/<32 hex>)
//   uploads.sha256    one "<sha256>  <key>" line per object (sha256sum -c works in uploads/)
//   manifest.json     written last: a folder without it is not a (finished) backup
//
// Not in it, on purpose:
//   - the replay log beside the database (visa.replay/): it only remembers the
//     request ids of the last 30 minutes (2 × SIGNATURE_MAX_SKEW_SECONDS). A
//     restore leaves the live one where it is; it is equally valid for the
//     restored database, since it is about requests, not rows.
//   - OUTBOX_DIR (.eml files written instead of e-mails when SMTP_URL is unset)
//     and partial uploads (*.part, still being written).
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import { DEFAULT_MIGRATION_TABLE } from 'kysely';
import type { AppConfig } from '../config.ts';
import { MIGRATION_NAMES } from '../db/migrate.ts';
import { STORAGE_KEY_PATTERN } from '../modules/stored-file/storage.ts';
import { StoredFileDamagedError } from '../modules/stored-file/envelope.ts';
import type { FileKeyring } from '../modules/stored-file/file-keys.ts';
import { createEncryptedStorage } from '../modules/stored-file/storage-encrypted.ts';
import { createLocalStorage } from '../modules/stored-file/storage-local.ts';

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database.sqlite';
export const UPLOADS_DIR = 'uploads';
export const UPLOAD_LIST_FILE = 'uploads.sha256';
const FORMAT = 'visa-platform-backup';
const FORMAT_VERSION = 1;
/** Snapshots taken again when objects the snapshot refers to vanished while they were copied. */
const SNAPSHOT_ATTEMPTS = 3;
/** Objects copied at once. */
const COPY_CONCURRENCY = 8;
/** Tables whose rows are counted in the manifest (those that exist). */
const COUNTED_TABLES = ['enterprise', 'account', 'user_order', 'order_applicant', 'order_material_file', 'page_check_page', 'visa_result_file', 'order_event'];

/** A refusal or a failure the operator can act on: printed as one line, exit status 1. */
export class BackupError extends Error {}

export interface BackupManifest {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  started_at: string;
  finished_at: string;
  app_version: string;
  /** The last migration applied to the copied database. */
  migration: string | null;
  database: { kind: 'sqlite'; source: string; file: string; bytes: number; sha256: string; integrity: 'ok' };
  /** Rows of a few key tables in the copy. */
  rows: Record<string, number>;
  uploads:
    | {
        included: true;
        source: string;
        dir: string;
        list: string;
        list_sha256: string;
        files: number;
        bytes: number;
        /** Objects the copied database refers to (all of them in the backup unless listed in `missing`). */
        referenced: number;
        /** Referenced objects the upload store no longer had (see createBackup). */
        missing: string[];
      }
    | { included: false; kind: 's3'; bucket: string };
  snapshot_attempts: number;
}

export interface BackupResult {
  dir: string;
  manifest: BackupManifest;
  warnings: string[];
}

interface CopiedObject {
  bytes: number;
  sha256: string;
}

interface Reference {
  key: string;
  sha256: string | null;
  table: string;
}

type Say = (line: string) => void;

export function appVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

// ── Commands for what this tool does not copy ─────────────────────────────

/** What to run instead when the database is PostgreSQL (nothing is copied by the CLI then). */
export function postgresBackupCommands(config: Pick<AppConfig, 'UPLOAD_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT'>, dir: string): string[] {
  return [
    "The database is PostgreSQL (DATABASE_URL): npm run backup copies SQLite only. With PostgreSQL's own tools, database FIRST, then the uploads:",
    `  mkdir -p ${dir}`,
    `  pg_dump -Fc --no-owner --file ${join(dir, 'database.dump')} "$DATABASE_URL"`,
    ...uploadsBackupCommands(config, dir),
  ];
}

function uploadsBackupCommands(config: Pick<AppConfig, 'UPLOAD_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT'>, dir: string): string[] {
  const target = join(dir, UPLOADS_DIR);
  if (config.S3_BUCKET) {
    const endpoint = config.S3_ENDPOINT ? ` --endpoint-url ${config.S3_ENDPOINT}` : '';
    // The app's objects only (materials/…): the bucket may hold other things.
    return [
      `  aws s3 sync s3://${config.S3_BUCKET}/materials ${target}/materials${endpoint}`,
      `  (or with MinIO's client: mc mirror <alias>/${config.S3_BUCKET}/materials ${target}/materials)`,
    ];
  }
  return [`  mkdir -p ${target} && cp -a ${join(resolve(config.UPLOAD_DIR), 'materials')} ${target}/`];
}

export function postgresRestoreCommands(config: Pick<AppConfig, 'UPLOAD_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT'>, dir: string): string[] {
  return [
    'The database is PostgreSQL (DATABASE_URL): npm run restore restores SQLite only. Stop every server first, then:',
    `  pg_restore --clean --if-exists --no-owner --single-transaction -d "$DATABASE_URL" ${join(dir, 'database.dump')}`,
    ...uploadsRestoreCommands(config, dir),
  ];
}

function uploadsRestoreCommands(config: Pick<AppConfig, 'UPLOAD_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT'>, dir: string): string[] {
  const source = join(dir, UPLOADS_DIR);
  if (config.S3_BUCKET) {
    const endpoint = config.S3_ENDPOINT ? ` --endpoint-url ${config.S3_ENDPOINT}` : '';
    return [
      `  aws s3 sync ${source}/materials s3://${config.S3_BUCKET}/materials --delete${endpoint}`,
      `  (or: mc mirror --overwrite --remove ${source}/materials <alias>/${config.S3_BUCKET}/materials)`,
    ];
  }
  const live = join(resolve(config.UPLOAD_DIR), 'materials');
  return [`  mv ${live} ${live}.pre-restore && cp -a ${join(source, 'materials')} ${live}`];
}

// ── Backup ────────────────────────────────────────────────────────────────

/**
 * Backs up the SQLite database and the local upload store into `dir`, which
 * must not exist or be empty. Safe while servers write to both.
 *
 * Order. An upload's object is stored (renamed into place, complete) BEFORE
 * the transaction recording its row commits, and an object replaced or
 * deleted is removed only AFTER the commit that stops referring to it
 * (material.service.ts; page checks and visa results do the same). So the
 * database is snapshotted first and the objects are taken afterwards: every
 * row in the snapshot had its object on disk at the snapshot's instant. The
 * other way round (files first) would miss every file uploaded between the
 * two copies whose row made it into the later database copy.
 *
 * The one gap left: an object the snapshot refers to that is deleted (its
 * file replaced or deleted by the customer, or the retention job) before it
 * is copied. To keep that window short, the bulk of the objects is copied
 * BEFORE the snapshot (they are immutable: keys are never reused), and after
 * the snapshot only what it refers to and is not yet copied is fetched. If
 * some referenced object is gone by then, the snapshot is taken again (up to
 * SNAPSHOT_ATTEMPTS times); what is still missing after that is also missing
 * from the live site (a retention run interrupted between its two steps) and
 * is listed in the manifest and printed.
 *
 * The snapshot is one step of SQLite's online backup API: it reads under one
 * read transaction, which in WAL mode never blocks the server's writers and
 * sees one committed state (a backup in many small steps restarts whenever
 * another connection writes, and may never end under load).
 */
export async function createBackup(config: AppConfig, dirArg: string, say: Say = () => {}): Promise<BackupResult> {
  if (config.database.kind !== 'sqlite') throw new BackupError('the database is PostgreSQL: use pg_dump (see the README, "Backups")');
  const startedAt = new Date();
  const source = resolve(config.database.file);
  if (!existsSync(source)) throw new BackupError(`no database at ${source} (SQLITE_FILE)`);
  const dir = resolve(dirArg);
  await ensureEmptyDir(dir);

  const localUploads = !config.S3_BUCKET;
  const uploadRoot = resolve(config.UPLOAD_DIR);
  const copied = new Map<string, CopiedObject>();
  const uploadsDir = join(dir, UPLOADS_DIR);
  const warnings: string[] = [];

  if (localUploads) {
    say(`copying the upload store ${uploadRoot} …`);
    await copyObjects(await listObjects(uploadRoot), uploadRoot, uploadsDir, copied);
  }

  const partial = join(dir, `${DATABASE_FILE}.partial`);
  let references: Reference[] = [];
  let missing: string[] = [];
  let attempts = 0;
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    while (attempts < SNAPSHOT_ATTEMPTS) {
      attempts += 1;
      await rm(partial, { force: true });
      say(`copying the database ${source} …`);
      // After the first step (which only counts pages) every page in one step: see above.
      await live.backup(partial, { progress: () => 0x7fffffff });
      references = readReferences(partial);
      if (!localUploads) break;
      // The objects the snapshot refers to that the bulk copy did not see.
      const wanted = references.filter((ref) => !copied.has(ref.key)).map((ref) => ref.key);
      await copyObjects(wanted, uploadRoot, uploadsDir, copied);
      missing = [...new Set(references.filter((ref) => !copied.has(ref.key)).map((ref) => ref.key))];
      if (missing.length === 0) break;
      if (attempts < SNAPSHOT_ATTEMPTS) say(`${missing.length} files the database refers to were deleted meanwhile: taking the database again`);
    }
  } finally {
    live.close();
  }

  if (localUploads) {
    // Objects copied by the bulk pass that the live store has deleted since and the snapshot does not
    // refer to (a replaced or deleted file): dropped, as they were from the live store.
    const referenced = new Set(references.map((ref) => ref.key));
    const stillLive = new Set(await listObjects(uploadRoot));
    for (const key of [...copied.keys()]) {
      if (!referenced.has(key) && !stillLive.has(key)) {
        await rm(join(uploadsDir, key), { force: true });
        copied.delete(key);
      }
    }
    for (const ref of references) {
      const got = copied.get(ref.key);
      // Rows record the plaintext's SHA-256; an object encrypted at rest (decision 0043) is checked opened.
      if (got && ref.sha256 && got.sha256 !== ref.sha256 && (await plainSha256(uploadsDir, ref.key, config.fileKeyring)) !== ref.sha256) {
        warnings.push(`${ref.key} (${ref.table}) does not match the SHA-256 its row recorded: the upload store's copy is damaged`);
      }
    }
    if (missing.length > 0) {
      warnings.push(
        `${missing.length} files the database refers to are not in the upload store (an interrupted retention run, or deleted while the backup ran): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ' …' : ''}`,
      );
    }
  }

  // The copy as one self-contained file (no -wal beside it), checked, counted.
  const facts = finishDatabaseCopy(partial);
  const database = join(dir, DATABASE_FILE);
  await rename(partial, database);
  // Personal data (passport scans, addresses): readable by this user only, like the objects.
  await chmod(database, 0o600);
  const databaseDigest = await digestFile(database);

  let uploads: BackupManifest['uploads'];
  if (localUploads) {
    const keys = [...copied.keys()].sort();
    const list = keys.map((key) => `${copied.get(key)!.sha256}  ${key}\n`).join('');
    await writeFile(join(dir, UPLOAD_LIST_FILE), list, { mode: 0o600 });
    uploads = {
      included: true,
      source: uploadRoot,
      dir: UPLOADS_DIR,
      list: UPLOAD_LIST_FILE,
      list_sha256: createHash('sha256').update(list).digest('hex'),
      files: keys.length,
      bytes: keys.reduce((sum, key) => sum + copied.get(key)!.bytes, 0),
      referenced: new Set(references.map((ref) => ref.key)).size,
      missing,
    };
  } else {
    uploads = { included: false, kind: 's3', bucket: config.S3_BUCKET! };
    warnings.push(
      [
        `the uploads are in the bucket ${config.S3_BUCKET} (S3_BUCKET) and are NOT in this backup; copy them now (after the database, as here):`,
        ...uploadsBackupCommands(config, dir),
      ].join('\n'),
    );
  }

  const manifest: BackupManifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    app_version: appVersion(),
    migration: facts.migration,
    database: { kind: 'sqlite', source, file: DATABASE_FILE, bytes: databaseDigest.bytes, sha256: databaseDigest.sha256, integrity: 'ok' },
    rows: facts.rows,
    uploads,
    snapshot_attempts: attempts,
  };
  // Last, and atomically: its presence says the backup is complete.
  const manifestPartial = join(dir, `${MANIFEST_FILE}.partial`);
  await writeFile(manifestPartial, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  await rename(manifestPartial, join(dir, MANIFEST_FILE));
  return { dir, manifest, warnings };
}

async function ensureEmptyDir(dir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return;
    }
    if (code === 'ENOTDIR') throw new BackupError(`${dir} is a file, not a folder`);
    throw error;
  }
  if (entries.length > 0) throw new BackupError(`${dir} is not empty: back up into a new folder (e.g. ${join(dirname(dir), stampName('backup'))})`);
}

function stampName(prefix: string): string {
  return `${prefix}-${new Date().toISOString().replace(/[:.]/g, '').replace('T', '-').slice(0, 17)}`;
}

/** The storage keys under an upload root (complete objects only: no *.part, nothing else). */
async function listObjects(root: string): Promise<string[]> {
  const keys: string[] = [];
  const shards = await readdir(join(root, 'materials')).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  for (const shard of shards) {
    const names = await readdir(join(root, 'materials', shard)).catch(() => [] as string[]);
    for (const name of names) {
      const key = `materials/${shard}/${name}`;
      if (STORAGE_KEY_PATTERN.test(key)) keys.push(key);
    }
  }
  return keys.sort();
}

/** Copies (and hashes) the objects not copied yet; one deleted meanwhile is skipped. */
async function copyObjects(keys: string[], fromRoot: string, toRoot: string, copied: Map<string, CopiedObject>): Promise<void> {
  const queue = keys.filter((key) => !copied.has(key));
  const worker = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      const result = await copyFile(join(fromRoot, key), join(toRoot, key));
      if (result) copied.set(key, result);
    }
  };
  await Promise.all(Array.from({ length: COPY_CONCURRENCY }, worker));
}

async function copyFile(from: string, to: string): Promise<CopiedObject | null> {
  let input;
  try {
    input = createReadStream(from);
    await new Promise<void>((ok, fail) => {
      input!.once('open', () => ok());
      input!.once('error', fail);
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  await mkdir(dirname(to), { recursive: true, mode: 0o700 });
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(input, tap, createWriteStream(to, { flags: 'wx', mode: 0o600, flush: true }));
  return { bytes, sha256: hash.digest('hex') };
}

/** The SHA-256 of a stored object's plaintext (opened if encrypted at rest), or null when it does not open. */
async function plainSha256(root: string, key: string, keyring: FileKeyring): Promise<string | null> {
  try {
    const stored = await createEncryptedStorage(createLocalStorage(root), keyring).get(key);
    if (!stored) return null;
    const hash = createHash('sha256');
    for await (const chunk of stored.body) hash.update(chunk as Buffer);
    return hash.digest('hex');
  } catch (error) {
    if (error instanceof StoredFileDamagedError) return null;
    throw error;
  }
}

async function digestFile(path: string): Promise<CopiedObject> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

function tableNames(db: SQLite.Database): string[] {
  return (db.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]).sort();
}

/**
 * Every stored object a database copy refers to: each table with a
 * `storage_key` column (and its `sha256`), without the rows whose object a
 * retention run deleted on purpose (`purged_at` set). Found by column name so a
 * new table of stored files is covered without a change here.
 */
function readReferences(file: string): Reference[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const references: Reference[] = [];
    for (const table of tableNames(db)) {
      const columns = new Set((db.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[]) ?? []);
      if (!columns.has('storage_key')) continue;
      const sha = columns.has('sha256') ? 'sha256' : 'null';
      const where = columns.has('purged_at') ? ' where purged_at is null' : '';
      const rows = db.prepare(`select storage_key as key, ${sha} as sha256 from "${table}"${where}`).all() as Array<{ key: string; sha256: string | null }>;
      for (const row of rows) references.push({ key: row.key, sha256: row.sha256, table });
    }
    return references;
  } finally {
    db.close();
  }
}

/** Turns the copy into a rollback-journal database (one file), checks it, and reads what the manifest says of it. */
function finishDatabaseCopy(file: string): { migration: string | null; rows: Record<string, number> } {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new BackupError(`the database copy failed SQLite's integrity check: ${String(integrity)}`);
    const tables = new Set(tableNames(db));
    const rows: Record<string, number> = {};
    for (const table of COUNTED_TABLES) {
      if (tables.has(table)) rows[table] = db.prepare(`select count(*) from "${table}"`).pluck().get() as number;
    }
    const migration = tables.has(DEFAULT_MIGRATION_TABLE)
      ? ((db.prepare(`select max(name) from "${DEFAULT_MIGRATION_TABLE}"`).pluck().get() as string | null) ?? null)
      : null;
    return { migration, rows };
  } finally {
    db.close();
  }
}

// ── Restore ───────────────────────────────────────────────────────────────

export interface RestoreResult {
  manifest: BackupManifest;
  database: string;
  /** Where the database that was there before was moved (null: there was none). */
  previousDatabase: string | null;
  uploads: string | null;
  previousUploads: string | null;
  files: number;
  /** Migrations this code will apply when the server starts on the restored database. */
  pendingMigrations: string[];
  warnings: string[];
}

/** Reads and checks a backup folder's manifest; a folder that is not a backup is refused in one line. */
export async function readManifest(dirArg: string): Promise<BackupManifest> {
  const dir = resolve(dirArg);
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new BackupError(`${dir} is not a backup made by npm run backup (no ${MANIFEST_FILE}; an unfinished backup has none either)`);
    throw error;
  }
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupError(`${join(dir, MANIFEST_FILE)} is not valid JSON: the backup is damaged`);
  }
  if (manifest.format !== FORMAT || !manifest.database || !manifest.uploads)
    throw new BackupError(`${dir} is not a backup made by npm run backup (unknown ${MANIFEST_FILE})`);
  if (manifest.version !== FORMAT_VERSION)
    throw new BackupError(`${dir} is a backup of format ${String(manifest.version)}; this version reads format ${FORMAT_VERSION}`);
  return manifest as BackupManifest;
}

/**
 * Checks the whole backup (checksums of the database copy, of the object list
 * and of every object) before touching anything, refuses while a process has
 * the target database open, then puts the backup in place. What was there is
 * moved aside, never deleted: <SQLITE_FILE>.pre-restore-<time> (with its -wal
 * and -shm) and <UPLOAD_DIR>/materials.pre-restore-<time>. The restored
 * materials/ folder holds exactly the backup's objects.
 */
export async function restoreBackup(config: AppConfig, dirArg: string, say: Say = () => {}): Promise<RestoreResult> {
  if (config.database.kind !== 'sqlite') throw new BackupError('the database is PostgreSQL: use pg_restore (see the README, "Backups")');
  const dir = resolve(dirArg);
  const manifest = await readManifest(dir);
  const warnings: string[] = [];
  const target = resolve(config.database.file);
  // At once (the checks below may take a while), and again right before the swap.
  assertNotInUse(target);

  say(`checking ${join(dir, DATABASE_FILE)} …`);
  const copy = join(dir, DATABASE_FILE);
  if (!existsSync(copy)) throw new BackupError(`${copy} is missing: the backup is damaged`);
  const digest = await digestFile(copy);
  if (digest.sha256 !== manifest.database.sha256 || digest.bytes !== manifest.database.bytes) {
    throw new BackupError(`${copy} does not match the SHA-256 in ${MANIFEST_FILE}: the backup is damaged`);
  }
  if (manifest.migration !== null && !MIGRATION_NAMES.includes(manifest.migration)) {
    throw new BackupError(
      `the backup's database has migration ${manifest.migration}, which this version does not know: restore it with the version that made it (${manifest.app_version})`,
    );
  }
  const pendingMigrations = MIGRATION_NAMES.filter((name) => manifest.migration === null || name > manifest.migration);

  let keys: string[] = [];
  if (manifest.uploads.included) {
    if (config.S3_BUCKET)
      throw new BackupError('this backup holds local uploads but S3_BUCKET is set: copy its uploads/ folder into the bucket yourself (README, "Backups")');
    keys = await checkObjects(dir, manifest.uploads, say);
  }

  let stamp = stampName('pre-restore').slice('pre-restore-'.length);
  const uploadRoot = resolve(config.UPLOAD_DIR);
  const liveMaterials = join(uploadRoot, 'materials');
  // Never onto an earlier restore's set-aside copies (rename would replace them).
  if (existsSync(`${target}.pre-restore-${stamp}`) || existsSync(`${liveMaterials}.pre-restore-${stamp}`)) stamp += `-${randomBytes(3).toString('hex')}`;

  // The new files are written beside their final places first, so the swap is a few renames.
  await mkdir(dirname(target), { recursive: true });
  const incoming = `${target}.restoring-${stamp}`;
  // Staged as <UPLOAD_DIR>/.restoring-<time>/materials/…
  const staging = manifest.uploads.included ? join(uploadRoot, `.restoring-${stamp}`) : null;
  try {
    await rm(incoming, { force: true });
    await copyFileFlushed(copy, incoming);
    if (staging) {
      say(`copying ${keys.length} files to ${uploadRoot} …`);
      await rm(staging, { recursive: true, force: true });
      await mkdir(join(staging, 'materials'), { recursive: true, mode: 0o700 });
      await copyObjects(keys, join(dir, UPLOADS_DIR), staging, new Map());
    }
    // Checked again right before the swap: a server started meanwhile is still refused.
    assertNotInUse(target);
  } catch (error) {
    await rm(incoming, { force: true });
    if (staging) await rm(staging, { recursive: true, force: true });
    throw error;
  }

  // The swap.
  let previousDatabase: string | null = null;
  if (existsSync(target)) {
    previousDatabase = `${target}.pre-restore-${stamp}`;
    await rename(target, previousDatabase);
  }
  for (const suffix of ['-wal', '-shm', '-journal']) {
    // Stale companions of the old file must never be applied to the restored one.
    if (existsSync(target + suffix)) await rename(target + suffix, `${target}.pre-restore-${stamp}${suffix}`);
  }
  await rename(incoming, target);

  let previousUploads: string | null = null;
  if (staging) {
    if (existsSync(liveMaterials)) {
      previousUploads = `${liveMaterials}.pre-restore-${stamp}`;
      await rename(liveMaterials, previousUploads);
    }
    await rename(join(staging, 'materials'), liveMaterials);
    await rm(staging, { recursive: true, force: true });
  } else if (!manifest.uploads.included) {
    warnings.push(
      [
        `the backup does not hold the uploads (they were in the bucket ${manifest.uploads.bucket}); put the bucket copy taken with it back now:`,
        ...uploadsRestoreCommands(config, dir),
      ].join('\n'),
    );
  }
  return {
    manifest,
    database: target,
    previousDatabase,
    uploads: staging ? liveMaterials : null,
    previousUploads,
    files: keys.length,
    pendingMigrations,
    warnings,
  };
}

/** The object list's checksum, then every object's; returns the keys. */
async function checkObjects(dir: string, uploads: Extract<BackupManifest['uploads'], { included: true }>, say: Say): Promise<string[]> {
  const listPath = join(dir, uploads.list);
  const list = await readFile(listPath, 'utf8').catch(() => {
    throw new BackupError(`${listPath} is missing: the backup is damaged`);
  });
  if (createHash('sha256').update(list).digest('hex') !== uploads.list_sha256) {
    throw new BackupError(`${listPath} does not match the SHA-256 in ${MANIFEST_FILE}: the backup is damaged`);
  }
  const entries = list
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
      if (!match || !STORAGE_KEY_PATTERN.test(match[2]!)) throw new BackupError(`${listPath} has a malformed line: the backup is damaged`);
      return { sha256: match[1]!, key: match[2]! };
    });
  if (entries.length !== uploads.files)
    throw new BackupError(`${listPath} lists ${entries.length} files, ${MANIFEST_FILE} says ${uploads.files}: the backup is damaged`);
  say(`checking ${entries.length} files …`);
  for (const entry of entries) {
    const path = join(dir, UPLOADS_DIR, entry.key);
    const got = await digestFile(path).catch(() => null);
    if (!got) throw new BackupError(`${path} is missing: the backup is damaged`);
    if (got.sha256 !== entry.sha256) throw new BackupError(`${path} does not match its SHA-256 in ${uploads.list}: the backup is damaged`);
  }
  return entries.map((entry) => entry.key);
}

/**
 * Refuses while another process has the database open. A server keeps its
 * SQLite connection (WAL mode) for its whole life, and that connection holds
 * a shared lock on the file even when idle: taking an exclusive lock without
 * waiting fails then. Cheap, and exact for anything using SQLite's locks (not
 * for a copy of the file on another machine's network share).
 */
function assertNotInUse(file: string): void {
  if (!existsSync(file)) return;
  let db: SQLite.Database | null = null;
  try {
    db = new SQLite(file, { fileMustExist: true });
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('begin exclusive');
    db.exec('commit');
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
      throw new BackupError(`${file} is in use (a server or another program has it open): stop the server first, then restore`);
    }
    // Not a database, or damaged: it is moved aside all the same.
  } finally {
    db?.close();
  }
}

async function copyFileFlushed(from: string, to: string): Promise<void> {
  await pipeline(createReadStream(from), createWriteStream(to, { flags: 'wx', mode: 0o600, flush: true }));
}
