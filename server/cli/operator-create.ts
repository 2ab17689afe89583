// npm run operator:create -- --account 账号 --name 姓名 --role operator|supervisor|catalogue_editor --password 密码
// Creates a back-office operator on the configured database and prints the
// TOTP secret once (text, otpauth URI and a terminal QR code) for the
// operator's authenticator app.
import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import { OPERATOR_ROLES, type OperatorRole } from '../../common/contracts/operator.ts';
import { OPERATOR_ACCOUNT_PATTERN, OPERATOR_NAME_MAX_LENGTH, OPERATOR_PASSWORD_MIN_LENGTH } from '../../common/contracts/rules.ts';
import { sha256Hex } from '../../common/signing.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createOperatorService } from '../modules/operator/operator.service.ts';
import { AppError } from '../platform/errors.ts';

const usage = `usage: npm run operator:create -- --account <账号> --name <姓名> --role ${OPERATOR_ROLES.join('|')} --password <密码>`;

function isOperatorRole(value: string): value is OperatorRole {
  return (OPERATOR_ROLES as readonly string[]).includes(value);
}

async function main() {
  const { values } = parseArgs({
    options: {
      account: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string', default: 'operator' },
      password: { type: 'string' },
      'no-qr': { type: 'boolean', default: false },
    },
  });
  const { account, name, role, password } = values;
  if (!account || !name || !password || !isOperatorRole(role)) {
    console.error(usage);
    process.exit(2);
  }
  if (
    !OPERATOR_ACCOUNT_PATTERN.test(account) ||
    name.length > OPERATOR_NAME_MAX_LENGTH ||
    password.length < OPERATOR_PASSWORD_MIN_LENGTH ||
    password.length > 64
  ) {
    console.error(
      `account: 3–50 letters, digits, _ . -; name at most ${OPERATOR_NAME_MAX_LENGTH} characters; password ${OPERATOR_PASSWORD_MIN_LENGTH} to 64 characters`,
    );
    process.exit(2);
  }
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    const service = createOperatorService(database.db, { idleMs: 0, absoluteMs: 0 });
    const created = await service.create({ account, name, role, passwordDigest: sha256Hex(password) });
    console.log(`created ${role} ${account} (#${created.operator_id})`);
    console.log(`TOTP secret: ${created.secret}`);
    console.log(`otpauth URI: ${created.otpauth_uri}`);
    if (!values['no-qr']) console.log(await QRCode.toString(created.otpauth_uri, { type: 'terminal', small: true }));
    console.log('Add the secret to an authenticator app now: it is not shown again (a supervisor can reset it).');
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
