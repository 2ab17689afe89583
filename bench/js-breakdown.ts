// npm run bench:js-breakdown — where each guest page's JavaScript comes from:
// the chunks Chromium downloads for home, a country page and a product page,
// their gzip size shared out over the modules in them (by rendered length), and
// summed per package (antd per component folder, the app per file). Needs a
// build made with BUNDLE_STATS=1 (the script's npm entry does that). Prints,
// asserts nothing.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { guestPages, startBuiltApp } from './support.ts';

const stats = JSON.parse(readFileSync('build/bundle-stats.json', 'utf8')) as Record<string, { size: number; modules: Record<string, number> }>;
const TOP = Number(process.env.TOP ?? 40);

/** The group a module's bytes count towards. */
function groupOf(id: string): string {
  const path = id.replace(/\\/g, '/').replace(/^\0/, '');
  const inModules = path.lastIndexOf('node_modules/');
  if (inModules < 0) return path.replace(/\?.*$/, '');
  const rest = path.slice(inModules + 'node_modules/'.length).split('/');
  const name = rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  const inner = rest.slice(name.split('/').length);
  if (name === 'antd' && (inner[0] === 'es' || inner[0] === 'lib') && inner.length > 2) return `antd/${inner[1]}`;
  if (name.startsWith('@rc-component/') || name.startsWith('rc-')) return name;
  return name;
}

const app = await startBuiltApp();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)}`;
try {
  for (const { name, path } of guestPages(app.dbFile)) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const files = new Map<string, number>();
    const pending: Array<Promise<void>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname.replace(/^\//, '');
      pending.push(response.body().then((body) => void files.set(file, gzipSync(body, { level: 9 }).length)));
    });
    await page.goto(`http://127.0.0.1:${app.port}${path}`, { waitUntil: 'networkidle' });
    await Promise.all(pending);
    await context.close();

    const groups = new Map<string, number>();
    let total = 0;
    for (const [file, gzip] of files) {
      total += gzip;
      const chunk = stats[file];
      const modules = Object.entries(chunk?.modules ?? {});
      const rendered = modules.reduce((sum, [, length]) => sum + length, 0);
      if (!chunk || rendered === 0) {
        groups.set(`(chunk) ${file}`, (groups.get(`(chunk) ${file}`) ?? 0) + gzip);
        continue;
      }
      for (const [id, length] of modules) {
        const group = groupOf(id);
        groups.set(group, (groups.get(group) ?? 0) + (gzip * length) / rendered);
      }
    }
    console.log(`\n${name} (${path}): ${files.size} files, ${kb(total)} KiB gzip`);
    const sorted = [...groups].sort((a, b) => b[1] - a[1]);
    for (const [group, bytes] of sorted.slice(0, TOP)) console.log(`  ${kb(bytes).padStart(6)}  ${group}`);
    const rest = sorted.slice(TOP).reduce((sum, [, bytes]) => sum + bytes, 0);
    if (rest > 0) console.log(`  ${kb(rest).padStart(6)}  (${sorted.length - TOP} more)`);
  }
} finally {
  await browser.close();
  app.child.kill('SIGTERM');
}
process.exit(0);
