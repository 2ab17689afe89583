// Demo back-office staff for development and demo mode — never production
// (nor tests, which make their own). Fixed TOTP secrets, shown in the README,
// so a tester can add them to an authenticator app or print the current code
// with `npm run operator:otp -- <account>`.
import { sha256Hex } from '../../../common/signing.ts';
import type { OperatorService } from '../../modules/operator/operator.service.ts';

export const DEMO_OPERATORS = [
  { account: 'demo_operator', password: 'Operator@123456', name: '赵敏（操作员）', role: 'operator', totpSecret: 'JBSWY3DPEHPK3PXPOPERATORDEMO2345' },
  { account: 'demo_supervisor', password: 'Supervisor@123456', name: '周婷（主管）', role: 'supervisor', totpSecret: 'KRSXG5CTMVRXEZLUSUPERVISORDEMO23' },
] as const;

/** Seeds the demo staff in dev and demo only; answers how many it created. */
export async function seedDemoOperators(service: OperatorService, appEnv: string): Promise<number> {
  if (appEnv !== 'dev' && appEnv !== 'demo') return 0;
  let created = 0;
  for (const { password, ...input } of DEMO_OPERATORS) {
    if (await service.exists(input.account)) continue;
    await service.create({ ...input, passwordDigest: sha256Hex(password) });
    created += 1;
  }
  return created;
}
