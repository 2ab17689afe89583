// npm run bench:photo — the visa photo check on its test set (bench/photo-set):
// the confusion table (expected verdict × verdict got), the share of fixable
// photos whose processed photo passes the check again, whether every
// non-compliant photo was caught, and the seconds per photo.
// PHOTO_SET_DIR=/tmp/photos also writes each photo (and its processed one) there to look at.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analysePhoto } from '../server/modules/photo-check/photo-analysis.ts';
import { warmUpDetector } from '../server/modules/photo-check/face-detector.ts';
import { type Expected, generatePhotoSet } from './photo-set/generate.ts';

const dir = process.env.PHOTO_SET_DIR;
const t0 = performance.now();
await warmUpDetector();
const set = await generatePhotoSet();
console.log(`测试集：${set.length} 张照片（生成 ${((performance.now() - t0) / 1000).toFixed(1)} s，含模型加载）`);
if (dir) mkdirSync(dir, { recursive: true });

const verdicts: Expected[] = ['pass', 'fixed', 'fail'];
const table = new Map<string, number>();
const times: number[] = [];
let fixable = 0;
let fixedCompliant = 0;
let missed = 0;
const lines: string[] = [];
for (const photo of set) {
  const start = performance.now();
  const result = await analysePhoto(photo.bytes, photo.rule);
  times.push(performance.now() - start);
  table.set(`${photo.expected}:${result.verdict}`, (table.get(`${photo.expected}:${result.verdict}`) ?? 0) + 1);
  let again = '';
  if (photo.expected === 'fixed') {
    fixable++;
    if (result.verdict === 'fixed' && result.processed) {
      const second = await analysePhoto(result.processed, photo.rule);
      again = ` → 处理后复检：${second.verdict}${second.problems.length + second.fixes.length ? `（${[...second.problems, ...second.fixes].join('；')}）` : ''}`;
      if (second.verdict === 'pass') fixedCompliant++;
    } else if (result.verdict === 'pass') fixedCompliant++;
  }
  if (photo.expected === 'fail' && result.verdict !== 'fail') missed++;
  if (dir) {
    writeFileSync(join(dir, `${photo.name}.jpg`), photo.bytes);
    if (result.processed) writeFileSync(join(dir, `${photo.name}.processed.jpg`), result.processed);
  }
  const mark = result.verdict === photo.expected ? ' ' : '✗';
  lines.push(
    `${mark} ${photo.name.padEnd(12)} 期望 ${photo.expected.padEnd(5)} 得到 ${result.verdict.padEnd(5)} ${Math.round(times.at(-1)!)} ms  ${[...result.problems, ...result.fixes].join('；')}${again}  ${JSON.stringify(result.measures)}`,
  );
}
console.log(lines.join('\n'));
console.log('\n混淆表（行：期望，列：得到）');
console.log(`${'期望\\得到'.padEnd(10)}${verdicts.map((v) => v.padStart(7)).join('')}`);
for (const expected of verdicts)
  console.log(`${expected.padEnd(10)}${verdicts.map((got) => String(table.get(`${expected}:${got}`) ?? 0).padStart(7)).join('')}`);
const sorted = [...times].sort((a, b) => a - b);
const avg = times.reduce((s, t) => s + t, 0) / times.length;
console.log(`\n可处理照片处理后合格：${fixedCompliant}/${fixable}（${((fixedCompliant / Math.max(1, fixable)) * 100).toFixed(0)}%，目标 ≥ 90%）`);
console.log(`不合格照片全部拦截：${missed === 0 ? '是' : `否，漏过 ${missed} 张`}`);
console.log(
  `每张照片检测耗时：平均 ${(avg / 1000).toFixed(2)} s，中位 ${(sorted[sorted.length >> 1]! / 1000).toFixed(2)} s，最长 ${(sorted.at(-1)! / 1000).toFixed(2)} s（目标 ≤ 2 s）`,
);
