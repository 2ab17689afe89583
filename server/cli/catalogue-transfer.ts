// npm run catalogue:export -- FILE.xlsx
// npm run catalogue:import -- FILE.xlsx [--dry-run]
// The catalogue workbook (issue 26) from the command line, on the database the
// configuration names (SQLite by default, PostgreSQL with DATABASE_URL). An
// import prints what changes per sheet and every bad row; it writes nothing
// while any row is bad, and exits non-zero then.
import { readFileSync, writeFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { exportWorkbook, importWorkbook, type ImportPlan, previewWorkbook } from '../modules/catalogue-io/catalogue-transfer.ts';

function printPlan(plan: ImportPlan): void {
  for (const sheet of plan.sheets) {
    console.log(`${sheet.sheet}: 新增 ${sheet.added}，修改 ${sheet.changed}，不变 ${sheet.unchanged}${sheet.removed ? `，删除 ${sheet.removed}` : ''}`);
  }
  for (const problem of plan.problems) {
    console.error(
      `错误：${problem.sheet || '文件'}${problem.row ? ` 第 ${problem.row} 行` : ''}${problem.column ? ` “${problem.column}”` : ''}：${problem.reason}`,
    );
  }
}

async function main(): Promise<number> {
  const [command, file, flag] = process.argv.slice(2);
  if ((command !== 'export' && command !== 'import') || !file || !file.endsWith('.xlsx')) {
    console.error('usage: npm run catalogue:export -- FILE.xlsx | npm run catalogue:import -- FILE.xlsx [--dry-run]');
    return 2;
  }
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    if (command === 'export') {
      writeFileSync(file, await exportWorkbook(database.db));
      console.log(`已导出产品目录到 ${file}`);
      return 0;
    }
    const bytes = readFileSync(file);
    if (flag === '--dry-run') {
      const plan = await previewWorkbook(database.db, bytes);
      printPlan(plan);
      console.log(plan.problems.length === 0 ? '预览：没有错误（未写入，去掉 --dry-run 导入）' : `预览：${plan.problems.length} 处错误`);
      return plan.problems.length === 0 ? 0 : 1;
    }
    const result = await importWorkbook(database.db, bytes, Date.now());
    printPlan(result);
    if (!result.applied) {
      console.error(`未导入：${result.problems.length} 处错误，数据库没有任何改动`);
      return 1;
    }
    console.log('已导入');
    return 0;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
