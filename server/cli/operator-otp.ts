// npm run operator:otp -- <account>
// Prints the operator's current TOTP code (what the authenticator app shows)
// from the secret stored in the configured database: for testers and the
// demo staff. Anyone who can run it can read the database anyway.
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createOperatorService } from '../modules/operator/operator.service.ts';
import { TOTP_STEP_SECONDS, totpCode } from '../modules/operator/totp.ts';
import { AppError } from '../platform/errors.ts';

async function main() {
  const account = process.argv[2];
  if (!account) {
    console.error('usage: npm run operator:otp -- <account>');
    process.exit(2);
  }
  const config = loadConfig();
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database);
    const secret = await createOperatorService(database.db, { idleMs: 0, absoluteMs: 0 }).secretOf(account);
    if (!secret) {
      console.error(`${account} has no second factor yet: log in with the password to enrol one`);
      process.exit(1);
    }
    const now = Date.now();
    const left = TOTP_STEP_SECONDS - (Math.floor(now / 1000) % TOTP_STEP_SECONDS);
    console.log(totpCode(secret, now));
    console.error(`(${account}: valid for ${left} more seconds; each code logs in once)`);
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
