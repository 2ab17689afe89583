// The address book calls. Every one needs a session and sees only the
// caller's enterprise's addresses.
import { addressDelete, addressList, addressSave } from '../../../common/contracts/address.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { AddressService } from './address.service.ts';

const TAG = '地址';

export function addressOperations(service: AddressService) {
  return [
    defineOperation({
      ...addressList,
      tag: TAG,
      summary: '企业地址簿：回寄地址或同行地址列表，默认地址在前',
      auth: 'customer',
      errors: [],
      handle: async ({ kind }, context) => ({ list: await service.list(context.caller, kind) }),
    }),
    defineOperation({
      ...addressSave,
      tag: TAG,
      summary: '新增或修改地址',
      description:
        '省/市/区代码须在地址库中且为上下级关系；联系人 1–20 个字；手机号为中国大陆手机号；详细地址 2–100 个字；同行地址须填写公司名称。' +
        '每个企业每类地址最多 50 个；每类只有一个默认地址（设为默认会在同一事务中取消其他默认），每类的第一个地址自动成为默认。地址类型不能修改。',
      auth: 'customer',
      errors: [
        ErrorCode.ADDRESS_NOT_FOUND,
        ErrorCode.ADDRESS_NAME_INVALID,
        ErrorCode.ADDRESS_MOBILE_INVALID,
        ErrorCode.ADDRESS_REGION_INVALID,
        ErrorCode.ADDRESS_DETAIL_INVALID,
        ErrorCode.ADDRESS_COMPANY_INVALID,
        ErrorCode.ADDRESS_LIMIT_REACHED,
      ],
      handle: (payload, context) => service.save(context.caller, payload),
    }),
    defineOperation({
      ...addressDelete,
      tag: TAG,
      summary: '删除地址（已确认的订单保留各自的地址快照，不受影响）',
      auth: 'customer',
      errors: [ErrorCode.ADDRESS_NOT_FOUND],
      handle: ({ address_id }, context) => service.remove(context.caller, address_id),
    }),
  ];
}
