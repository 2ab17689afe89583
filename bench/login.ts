// npm run bench:login — how long one login takes (dominated by scrypt with the
// OWASP parameters): median, min and max of 20, through the real API.
import { sha256Hex } from '../common/signing.ts';
import { createTestApp } from '../server/test-support/test-app.ts';

const RUNS = 20;
const t = await createTestApp();
const { account, password } = await t.createAccount();
const times: number[] = [];
for (let i = 0; i < RUNS; i += 1) {
  const started = performance.now();
  const result = await t.call('/www/account_login', { account, password: sha256Hex(password) });
  times.push(performance.now() - started);
  if (result.body.ret !== 0) throw new Error(`login failed: ${result.body.msg}`);
}
await t.close();
times.sort((a, b) => a - b);
const median = (times[RUNS / 2 - 1]! + times[RUNS / 2]!) / 2;
console.log(
  `login (scrypt N=2^17 r=8 p=1), ${RUNS} runs on ${t.kind}: median ${median.toFixed(0)} ms, min ${times[0]!.toFixed(0)} ms, max ${times[RUNS - 1]!.toFixed(0)} ms`,
);
