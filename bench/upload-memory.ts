// npm run bench:upload — memory of the upload path under load. The API server
// runs in a child process (its own RSS); 10 customers with draft orders each
// upload a 10 MB file at the same time over real sockets. The child's RSS is
// sampled from /proc/<pid>/status every 10 ms (and its VmHWM, the kernel's
// own peak, after resetting it once the server is warm). Prints baseline and
// peak RSS, total time and throughput. Asserts nothing but that the uploads
// succeeded.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '../common/signing.ts';
import { DEV_API_CLIENTS } from '../server/config.ts';

import { signedHeaders } from './support.ts';
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 10);
const FILE_BYTES = Number(process.env.BENCH_FILE_BYTES ?? 10 * 1024 * 1024);
const PASSWORD = 'Bench@123456';

/** The child: the app without pages on a fresh database, 10 enterprises, then its port. */
async function serve() {
  const [{ buildApp }, { loadConfig }, { openDatabase }, { migrateToLatest }, { seedCatalogue }] = await Promise.all([
    import('../server/app.ts'),
    import('../server/config.ts'),
    import('../server/db/database.ts'),
    import('../server/db/migrate.ts'),
    import('../server/db/seed/catalogue/index.ts'),
  ]);
  const config = loadConfig({ ...process.env, APP_ENV: 'test', LOG_LEVEL: 'warn', API_CLIENTS: DEV_API_CLIENTS });
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  await seedCatalogue(database.db, Date.now());
  const { app, services } = await buildApp({ config, database });
  const accounts: string[] = [];
  for (let i = 0; i < CUSTOMERS; i += 1) {
    const account = `bench_upload_${i}_${randomBytes(3).toString('hex')}`;
    await services.account.createEnterpriseWithAdmin({
      enterpriseName: `压测企业${i}`,
      enterpriseKind: 'company',
      adminAccount: account,
      adminPasswordDigest: sha256Hex(PASSWORD),
      adminName: `压测${i}`,
      adminMobilePhone: '13800138000',
    });
    accounts.push(account);
  }
  const product = await database.db
    .selectFrom('visa_product')
    .select('visa_product_id')
    .where('status', '=', 0)
    .where('channel', '=', 0)
    .where('offline', '=', 1)
    .orderBy('visa_product_id')
    .executeTakeFirstOrThrow();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(
    JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, accounts, productId: product.visa_product_id, database: database.kind }),
  );
  process.on('SIGTERM', async () => {
    await app.close();
    await database.destroy();
    process.exit(0);
  });
}

function rssKb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

const mb = (kb: number) => (kb / 1024).toFixed(1);

/** One upload over its own connection, the file generated while it is sent (never held whole). */
function uploadOnce(port: number, token: string, fields: Record<string, number>, bytes: number): Promise<{ ret: number; msg: string; body: any }> {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/www/order/material_upload',
        agent: false,
        headers: {
          ...signedHeaders(token),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + bytes + tail.length),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      },
    );
    req.on('error', reject);
    req.write(head);
    // A JPEG start, then incompressible bytes.
    let sent = 0;
    const chunk = randomBytes(64 * 1024);
    chunk.set([0xff, 0xd8, 0xff, 0xe0]);
    const pump = () => {
      while (sent < bytes) {
        const size = Math.min(chunk.length, bytes - sent);
        sent += size;
        if (!req.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'visa-bench-upload-'));
  const uploadDir = join(dir, 'uploads');
  const child: ChildProcess = spawn('node', ['--conditions=production', '--import', 'tsx', 'bench/upload-memory.ts', '--server'], {
    env: { ...process.env, NODE_ENV: 'production', SQLITE_FILE: join(dir, 'bench.db'), UPLOAD_DIR: uploadDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let line = '';
  for await (const chunk of child.stdout!) {
    line += String(chunk);
    if (line.includes('\n')) break;
  }
  child.stdout!.resume();
  const { port, accounts, productId, database } = JSON.parse(line.split('\n')[0]!) as { port: number; accounts: string[]; productId: number; database: string };
  const base = `http://127.0.0.1:${port}`;
  const call = async (path: string, payload: object, token?: string) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(token) },
      body: JSON.stringify(payload),
    });
    const body = (await response.json()) as { ret: number; msg: string; body: any };
    if (body.ret !== 0) throw new Error(`${path}: ${body.msg}`);
    return body.body;
  };

  try {
    const departure = new Date(Date.now() + (30 * 24 + 8) * 3_600_000).toISOString().slice(0, 10);
    const customers = [];
    for (const account of accounts) {
      const { token } = await call('/www/account_login', { account, password: sha256Hex(PASSWORD) });
      const { user_order_id } = await call(
        '/www/order/order_create',
        { visa_product_id: productId, departure_date: departure, applicants: [{ name: '压测申请人', identity_id: 0, mobile_phone: '13800138000' }] },
        token,
      );
      const list = await call('/www/order/material_list', { user_order_id }, token);
      const applicant = list.applicants[0];
      customers.push({ token, fields: { user_order_id, applicant_id: applicant.applicant_id, material_id: applicant.electronic[0].material_id } });
    }
    // Warm the upload path (multipart, storage, the first transaction) with one small file.
    const warm = await uploadOnce(port, customers[0]!.token, customers[0]!.fields, 256 * 1024);
    if (warm.ret !== 0) throw new Error(`warm-up upload failed: ${warm.msg}`);
    await call('/www/order/material_delete', { user_order_id: customers[0]!.fields.user_order_id, file_id: warm.body.file.file_id }, customers[0]!.token);
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const pid = child.pid!;
    const baseline = rssKb(pid).rss;
    // Reset the kernel's peak (VmHWM) to now, so it covers the uploads only.
    let hwmReset = true;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      hwmReset = false;
    }
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKb(pid).rss);
    }, 10);

    const started = performance.now();
    const results = await Promise.all(customers.map((customer) => uploadOnce(port, customer.token, customer.fields, FILE_BYTES)));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = rssKb(pid);
    peak = Math.max(peak, after.rss);

    const failed = results.filter((result) => result.ret !== 0);
    if (failed.length > 0) throw new Error(`${failed.length} uploads failed: ${failed.map((f) => f.msg).join('; ')}`);
    const stored = results.map((result) => result.body.file.size as number);
    if (stored.some((size) => size !== FILE_BYTES)) throw new Error('a stored size differs from the file sent');
    const totalMb = (CUSTOMERS * FILE_BYTES) / (1024 * 1024);

    console.log(
      `database: ${database}; storage: local disk (${uploadDir}); ${CUSTOMERS} customers × ${(FILE_BYTES / 1048576).toFixed(1)} MB, all at once, loopback`,
    );
    console.log(`baseline RSS   ${mb(baseline).padStart(7)} MB   (warm server, before the uploads)`);
    console.log(`peak RSS       ${mb(peak).padStart(7)} MB   (sampled every 10 ms)   +${mb(peak - baseline)} MB over baseline`);
    console.log(
      `peak VmHWM     ${mb(after.hwm).padStart(7)} MB   ${hwmReset ? '(kernel peak since reset before the uploads)' : '(kernel peak since start: could not reset)'}`,
    );
    console.log(`total time     ${seconds.toFixed(2).padStart(7)} s    ${totalMb.toFixed(0)} MB in ${(totalMb / seconds).toFixed(1)} MB/s`);
    console.log(
      `growth per concurrent upload ≈ ${((peak - baseline) / 1024 / CUSTOMERS).toFixed(1)} MB (buffers and not-yet-collected garbage); buffering whole files would need ≥ ${totalMb.toFixed(0)} MB`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--server')) await serve();
else await run();
