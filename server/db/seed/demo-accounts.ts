// Demo enterprises for development and demo mode (never production). Uses the
// same service call as `npm run account:create`.
import { sha256Hex } from '../../../common/signing.ts';
import type { AccountService, NewEnterpriseInput } from '../../modules/account/account.service.ts';

export const DEMO_ACCOUNTS: Array<Omit<NewEnterpriseInput, 'adminPasswordDigest'> & { password: string }> = [
  {
    enterpriseName: '上海星途商务咨询有限公司',
    enterpriseKind: 'company',
    contactName: '王敏',
    contactPhone: '021-62881234',
    consultantName: '李婷（签证顾问）',
    consultantPhone: '13916628800',
    adminAccount: 'demo_admin',
    password: 'Demo@123456',
    adminName: '王敏',
    adminMobilePhone: '13800138000',
    adminEmail: 'wangmin@xingtu.example',
  },
  {
    enterpriseName: '杭州假日国际旅行社',
    enterpriseKind: 'agency',
    contactName: '陈强',
    contactPhone: '0571-87651234',
    adminAccount: 'agency_admin',
    password: 'Agency@123456',
    adminName: '陈强',
    adminMobilePhone: '13705712345',
    adminEmail: 'chenqiang@holiday.example',
  },
];

export async function seedDemoAccounts(service: AccountService, exists: (account: string) => Promise<boolean>): Promise<number> {
  let created = 0;
  for (const { password, ...input } of DEMO_ACCOUNTS) {
    if (await exists(input.adminAccount)) continue;
    await service.createEnterpriseWithAdmin({ ...input, adminPasswordDigest: sha256Hex(password) });
    created += 1;
  }
  return created;
}
