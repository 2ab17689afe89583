// The insurance plans call of the confirm step.
import { insurancePlanList } from '../../../common/contracts/insurance.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { InsuranceService } from './insurance.service.ts';

export function insuranceOperations(service: InsuranceService) {
  return [
    defineOperation({
      ...insurancePlanList,
      tag: '订单',
      summary: '订单可选的旅行保险方案（在售），含建议天数和全部申请人的保费',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND],
      handle: ({ user_order_id }, { caller }) => service.planList(caller, user_order_id),
    }),
  ];
}
