// The enterprise's address book (return and peer addresses): list, save
// (add or edit), delete. Every account of the enterprise shares it; another
// enterprise's address answers like a missing one (1861).
import type { Kysely } from 'kysely';
import type { AddressSaveInput, AddressView } from '../../../common/contracts/address.ts';
import { ADDRESS_LIMITS, MOBILE_PHONE_PATTERN } from '../../../common/contracts/rules.ts';
import { type AddressKind } from '../../../common/address.ts';
import { ErrorCode } from '../../../common/error-codes.ts';
import { normalizeInputText } from '../../../common/text.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../platform/errors.ts';
import { resolveRegion, regionNames } from './address-region.ts';
import { type AddressFields, type AddressRow, createAddressRepository } from './address.repository.ts';
import type { Customer } from '../../platform/principal.ts';

function characters(text: string): number {
  return [...text].length;
}

export function addressView(row: AddressRow): AddressView {
  return {
    address_id: row.address_id,
    kind: row.kind as AddressKind,
    company_name: row.company_name,
    name: row.name,
    mobile_phone: row.mobile_phone,
    province_code: row.province_code,
    city_code: row.city_code,
    county_code: row.county_code,
    ...regionNames(row.province_code, row.city_code, row.county_code),
    detail: row.detail,
    is_default: row.is_default === 1,
    updated_at: row.updated_at,
  };
}

/** The input as it will be stored, or the first rule it breaks. */
export function validateAddress(input: AddressSaveInput): AddressFields {
  let companyName: string | null = null;
  if (input.kind === 'peer') {
    companyName = normalizeInputText(input.company_name ?? '');
    if (characters(companyName) < 1 || characters(companyName) > ADDRESS_LIMITS.companyMaxLength) throw new AppError(ErrorCode.ADDRESS_COMPANY_INVALID);
  }
  const name = normalizeInputText(input.name);
  if (characters(name) < 1 || characters(name) > ADDRESS_LIMITS.nameMaxLength) throw new AppError(ErrorCode.ADDRESS_NAME_INVALID);
  // "138 0013 8000" and "138-0013-8000" are the same number.
  const mobile = normalizeInputText(input.mobile_phone).replace(/[\s-]/g, '');
  if (!MOBILE_PHONE_PATTERN.test(mobile)) throw new AppError(ErrorCode.ADDRESS_MOBILE_INVALID);
  const region = resolveRegion(input.province_code.trim(), input.city_code.trim(), input.county_code?.trim());
  if (!region) throw new AppError(ErrorCode.ADDRESS_REGION_INVALID);
  const detail = normalizeInputText(input.detail);
  if (characters(detail) < ADDRESS_LIMITS.detailMinLength || characters(detail) > ADDRESS_LIMITS.detailMaxLength)
    throw new AppError(ErrorCode.ADDRESS_DETAIL_INVALID);
  return {
    kind: input.kind,
    company_name: companyName,
    name,
    mobile_phone: mobile,
    province_code: region.province_code,
    city_code: region.city_code,
    county_code: region.county_code,
    detail,
    is_default: input.is_default === true,
  };
}

export function createAddressService(db: Kysely<Database>, deps: { now: () => number }) {
  const repo = createAddressRepository(db);

  return {
    async list(owner: Customer, kind: AddressKind): Promise<AddressView[]> {
      return (await repo.list(owner.enterpriseId, kind)).map(addressView);
    },

    async save(owner: Customer, input: AddressSaveInput): Promise<AddressView> {
      const fields = validateAddress(input);
      const at = deps.now();
      let addressId: number;
      if (input.address_id) {
        if (!(await repo.update(owner.enterpriseId, input.address_id, fields, at))) throw new AppError(ErrorCode.ADDRESS_NOT_FOUND);
        addressId = input.address_id;
      } else {
        const created = await repo.insert(owner.enterpriseId, owner.accountId, fields, ADDRESS_LIMITS.maxPerKind, at);
        if (created === null) throw new AppError(ErrorCode.ADDRESS_LIMIT_REACHED);
        addressId = created;
      }
      const row = await repo.find(owner.enterpriseId, addressId);
      // Deleted by a colleague between the write and this read.
      if (!row) throw new AppError(ErrorCode.ADDRESS_NOT_FOUND);
      return addressView(row);
    },

    async remove(owner: Customer, addressId: number): Promise<{ address_id: number }> {
      if (!(await repo.remove(owner.enterpriseId, addressId))) throw new AppError(ErrorCode.ADDRESS_NOT_FOUND);
      return { address_id: addressId };
    },

    /** One address of the enterprise, for the confirm step's snapshot. */
    async find(owner: { enterpriseId: number }, addressId: number): Promise<AddressRow | undefined> {
      return repo.find(owner.enterpriseId, addressId);
    },
  };
}

export type AddressService = ReturnType<typeof createAddressService>;
