// 产品管理 · 面试时段 (/admin-api/catalogue/slot_…): supervisors and catalogue editors.
import {
  adminSlotCalendar,
  adminSlotCapacity,
  adminSlotClosureAdd,
  adminSlotClosureRemove,
  adminSlotDelete,
  adminSlotGenerate,
} from '../../../common/contracts/interview-slot-admin.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { defineOperation } from '../../platform/operation.ts';
import type { SlotAdminService } from './slot-admin.service.ts';

const TAG = '后台 · 产品管理 · 面试时段';

export function slotAdminOperations(service: SlotAdminService) {
  return [
    defineOperation({
      ...adminSlotCalendar,
      tag: TAG,
      summary: '领区的面试时段日历（主管、产品编辑）：每天的时段、容量和已约人数，闭馆日，最近的改动',
      auth: 'catalogue',
      errors: [ErrorCode.SLOT_DISTRICT_NOT_FOUND, ErrorCode.SLOT_INPUT_INVALID],
      handle: (payload) => service.calendar(payload),
    }),
    defineOperation({
      ...adminSlotGenerate,
      tag: TAG,
      summary: '按日期范围批量生成时段（主管、产品编辑）：所选星期、时间和容量，跳过周末、节假日和闭馆日',
      description: '同一天已有同一开始时间的时段不改动（已约人数和容量保持）。范围最多 366 天，开始日期不早于今天。',
      auth: 'catalogue',
      errors: [ErrorCode.SLOT_DISTRICT_NOT_FOUND, ErrorCode.SLOT_INPUT_INVALID],
      handle: (payload, { caller }) => service.generate(caller, payload),
    }),
    defineOperation({
      ...adminSlotCapacity,
      tag: TAG,
      summary: '修改时段容量（主管、产品编辑）：不能少于已预约人数（2333，msg 给出人数）',
      auth: 'catalogue',
      errors: [ErrorCode.SLOT_NOT_FOUND, ErrorCode.SLOT_INPUT_INVALID, ErrorCode.SLOT_BELOW_BOOKED],
      handle: (payload, { caller }) => service.setCapacity(caller, payload),
    }),
    defineOperation({
      ...adminSlotDelete,
      tag: TAG,
      summary: '删除时段（主管、产品编辑）：已有预约的时段不能删除；当天最后一个时段不能删除（请设闭馆日）',
      auth: 'catalogue',
      errors: [ErrorCode.SLOT_NOT_FOUND, ErrorCode.SLOT_BOOKED, ErrorCode.SLOT_LAST_OF_DAY],
      handle: async (payload, { caller }) => {
        await service.deleteSlot(caller, payload);
        return {};
      },
    }),
    defineOperation({
      ...adminSlotClosureAdd,
      tag: TAG,
      summary: '设置闭馆日（主管、产品编辑）：客人的面试时间选择随即不再提供该日；已有预约的日子不能设置',
      auth: 'catalogue',
      errors: [ErrorCode.SLOT_DISTRICT_NOT_FOUND, ErrorCode.SLOT_INPUT_INVALID, ErrorCode.SLOT_DAY_BOOKED, ErrorCode.SLOT_CLOSURE_EXISTS],
      handle: async (payload, { caller }) => {
        await service.addClosure(caller, payload);
        return {};
      },
    }),
    defineOperation({
      ...adminSlotClosureRemove,
      tag: TAG,
      summary: '取消闭馆日（主管、产品编辑）',
      auth: 'catalogue',
      errors: [ErrorCode.SLOT_DISTRICT_NOT_FOUND, ErrorCode.SLOT_INPUT_INVALID, ErrorCode.SLOT_CLOSURE_NOT_FOUND],
      handle: async (payload, { caller }) => {
        await service.removeClosure(caller, payload);
        return {};
      },
    }),
  ];
}
