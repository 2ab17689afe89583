// npm run account:create -- --enterprise 名称 --kind company|agency --account 账号 --password 密码 --name 姓名 [--mobile …] [--email …]
// Creates an enterprise and its administrator account on the configured database.
import { parseArgs } from 'node:util';
import { sha256Hex } from '../../common/signing.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createAccountService } from '../modules/account/account.service.ts';
import { AppError } from '../platform/errors.ts';

const usage =
  'usage: npm run account:create -- --enterprise <名称> --kind company|agency --account <账号> --password <密码> --name <姓名> [--mobile <手机号>] [--email <邮箱>]';

async function main() {
  const { values } = parseArgs({
    options: {
      enterprise: { type: 'string' },
      kind: { type: 'string', default: 'company' },
      account: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      mobile: { type: 'string' },
      email: { type: 'string' },
    },
  });
  const { enterprise, kind, account, password, name } = values;
  if (!enterprise || !account || !password || !name || (kind !== 'company' && kind !== 'agency')) {
    console.error(usage);
    process.exit(2);
  }
  if (account.length > 50 || password.length > 50 || password.length < 8) {
    console.error('account must be at most 50 characters; password 8 to 50 characters');
    process.exit(2);
  }
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    const service = createAccountService(database.db, { idleMs: 0, absoluteMs: 0 });
    const created = await service.createEnterpriseWithAdmin({
      enterpriseName: enterprise,
      enterpriseKind: kind,
      adminAccount: account,
      adminPasswordDigest: sha256Hex(password),
      adminName: name,
      adminMobilePhone: values.mobile,
      adminEmail: values.email,
    });
    console.log(`created enterprise #${created.enterpriseId} and administrator ${account} (#${created.accountId})`);
  } finally {
    await database.destroy();
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof AppError) {
    console.error(error.message);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
