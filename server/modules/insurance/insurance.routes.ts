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
      summary: '订单可选的旅行保险方案（在售），按客户的回程日期或行程天数给出建议天数、每人保费和全部申请人的保费',
      auth: 'customer',
      errors: [ErrorCode.ORDER_NOT_FOUND, ErrorCode.INSURANCE_DAYS_INVALID],
      handle: ({ user_order_id, ...trip }, { caller }) => service.planList(caller, user_order_id, trip),
    }),
  ];
}
