// One address as the book and the confirm page show it: who, phone, where.
import { Tag } from 'antd';
import { fullAddressText } from '../../../common/address';
import { maskMobilePhone } from '../../../common/text';

export interface AddressLike {
  company_name: string | null;
  name: string;
  mobile_phone: string;
  province_name: string;
  city_name: string;
  county_name: string;
  detail: string;
  is_default?: boolean;
  kind?: 'return' | 'peer';
}

export function AddressCardBody({ address, maskPhone = false }: { address: AddressLike; maskPhone?: boolean }) {
  return (
    <div className="addr-card-body">
      <div className="addr-card-who">
        {address.company_name ? <span className="addr-card-company">{address.company_name}</span> : null}
        <span className="addr-card-name">{address.name}</span>
        <span className="addr-card-phone">{maskPhone ? maskMobilePhone(address.mobile_phone) : address.mobile_phone}</span>
        {address.is_default ? (
          <Tag color="red" variant="outlined" className="addr-card-tag">
            默认
          </Tag>
        ) : null}
        {address.kind === 'peer' ? <Tag className="addr-card-tag">同行地址</Tag> : null}
      </div>
      <div className="addr-card-where">{fullAddressText(address)}</div>
    </div>
  );
}
