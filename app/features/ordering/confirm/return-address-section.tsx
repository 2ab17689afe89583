// 回寄地址: where the passports go when the visa is done — one of the
// enterprise's return addresses, or a peer agency's address.
import { EnvironmentOutlined, SwapOutlined, TeamOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { AddressCardBody, type AddressLike } from '../../../components/address/address-card';

export interface ReturnAddressSectionProps {
  address: AddressLike | null;
  /** false: the order is confirmed, the address is shown as kept. */
  editable: boolean;
  onChooseReturn?: () => void;
  onChoosePeer?: () => void;
}

export function ReturnAddressSection({ address, editable, onChooseReturn, onChoosePeer }: ReturnAddressSectionProps) {
  return (
    <section className="oc-section" aria-labelledby="oc-address-title" data-testid="confirm-return-address">
      <div className="oc-section-head">
        <h2 className="oc-section-title" id="oc-address-title">
          回寄地址
        </h2>
        {editable ? (
          <div className="oc-section-actions">
            <Button size="small" icon={<SwapOutlined />} onClick={onChooseReturn} data-testid="choose-return-address">
              {address ? '更换地址' : '选择地址'}
            </Button>
            <Button size="small" icon={<TeamOutlined />} onClick={onChoosePeer} data-testid="choose-peer-address">
              寄给同行
            </Button>
          </div>
        ) : null}
      </div>
      {address ? (
        <div className="oc-address">
          <EnvironmentOutlined className="oc-address-icon" />
          <AddressCardBody address={address} />
        </div>
      ) : (
        <button type="button" className="oc-address-empty" onClick={onChooseReturn} disabled={!editable}>
          <EnvironmentOutlined /> 请添加或选择回寄地址，办理完成后护照将寄回此地址
        </button>
      )}
    </section>
  );
}
