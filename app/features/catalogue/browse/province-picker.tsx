import './browse.css';

import { BankOutlined, EnvironmentOutlined, InfoCircleOutlined } from '@ant-design/icons';
import type { Province } from '../../../../common/web-context';
import { PARAM } from './browse-params';
import type { ConsularDistrict } from '../../../../common/contracts/catalogue';

export interface ProvincePickerProps {
  provinces: Province[];
  /** The selected province_code, or null when none is known. */
  value: string | null;
  /** Where the selection comes from: the URL, the visitor's IP address, or nowhere. */
  source: 'url' | 'ip' | null;
  /** The country's consular districts (empty: the country accepts applications nationwide). */
  districts: ConsularDistrict[];
  /** The district the product list was filtered by. */
  districtId: number | null;
  /** Other parameters the no-JavaScript form keeps when the province changes. */
  keep: Record<string, string | null>;
  onChange: (provinceCode: string) => void;
}

/**
 * '您的居住地': the province decides the consular district, and so which
 * products apply. A native select (the phone's own picker, no JavaScript of
 * ours): with JavaScript a change reloads the list in place; without, it sits
 * in a GET form with a '查看' button.
 */
export function ProvincePicker({ provinces, value, source, districts, districtId, keep, onChange }: ProvincePickerProps) {
  const district = districts.find((d) => d.consular_district_id === districtId) ?? null;
  const provinceName = provinces.find((p) => p.province_code === value)?.name ?? null;
  const provinceNames = new Map(provinces.map((p) => [p.province_code, p.name]));

  return (
    <div className="browse-province" data-testid="province-picker">
      <form method="get" className="browse-province-form">
        <label className="browse-filter-label" htmlFor="browse-province-select">
          <EnvironmentOutlined /> 您的居住地
        </label>
        <select
          id="browse-province-select"
          className="browse-province-select"
          name={PARAM.province}
          value={value ?? ''}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="" disabled>
            请选择居住省份
          </option>
          {provinces.map((p) => (
            <option key={p.province_code} value={p.province_code}>
              {p.name}
            </option>
          ))}
        </select>
        {Object.entries(keep).map(([name, v]) => (v ? <input key={name} type="hidden" name={name} value={v} /> : null))}
        <noscript>
          <button type="submit" className="browse-province-submit">
            查看
          </button>
        </noscript>
        {source === 'ip' ? <span className="browse-province-source">已根据您的网络位置自动选择</span> : null}
      </form>

      <div className="browse-district" data-testid="district-info">
        {districts.length === 0 ? (
          <p className="browse-district-hint">
            <InfoCircleOutlined /> 该国签证不分领区，全国各省市居民均可申请。
          </p>
        ) : (
          <>
            <p className="browse-district-hint">
              <InfoCircleOutlined /> 居住地决定受理领区：请按户籍或长期居住（工作）所在省份选择，各领区的产品与所需材料可能不同。
            </p>
            {district ? (
              <div className="browse-district-card">
                <span className="browse-district-icon" aria-hidden="true">
                  <BankOutlined />
                </span>
                <div className="browse-district-body">
                  <div className="browse-district-name">
                    受理领区：<strong data-testid="district-name">{district.name}</strong>
                  </div>
                  <div className="browse-district-consulate">{district.consulate_name}</div>
                  {district.address ? <div className="browse-district-address">{district.address}</div> : null}
                </div>
              </div>
            ) : (
              <p className="browse-district-none">
                {provinceName
                  ? `${provinceName}暂未对应具体领区，下面列出各领区的全部产品，下单前顾问会为您确认。`
                  : '请选择您的居住地，查看对应领区可办理的签证产品。'}
              </p>
            )}
            <details className="browse-district-all">
              <summary>查看全部{districts.length}个领区及受理范围</summary>
              <ul>
                {districts.map((d) => (
                  <li key={d.consular_district_id} className={d.consular_district_id === districtId ? 'is-current' : undefined}>
                    <strong>{d.name}</strong>
                    <span className="browse-district-all-consulate">{d.consulate_name}</span>
                    <span className="browse-district-all-provinces">{d.province_codes.map((code) => provinceNames.get(code) ?? code).join('、') || '—'}</span>
                  </li>
                ))}
              </ul>
            </details>
          </>
        )}
      </div>
    </div>
  );
}
