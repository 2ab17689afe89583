// Province / city / county picker over the address library (spec §3), for
// Form.Item: value is the list of codes. The library is fetched once and
// cached in localStorage (app/lib/sys-config.ts).
import { Cascader } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { getAddressLibrary } from '../../lib/sys-config';
import { type Library, type RegionOption, regionOptions } from './region-options';

export interface RegionCascaderProps {
  value?: string[];
  onChange?: (value: string[]) => void;
  id?: string;
  status?: 'error' | 'warning' | '';
}

function searchFilter(input: string, path: RegionOption[]): boolean {
  return path.some((option) => option.label.includes(input.trim()));
}

export function RegionCascader({ value, onChange, id, status }: RegionCascaderProps) {
  const [library, setLibrary] = useState<Library | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    getAddressLibrary().then(
      (loaded) => live && setLibrary(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const options = useMemo(() => (library ? regionOptions(library) : []), [library]);

  return (
    <Cascader<RegionOption>
      id={id}
      data-testid="region-cascader"
      options={options}
      value={value}
      onChange={(next) => onChange?.((next ?? []) as string[])}
      placeholder={failed ? '地址库加载失败，请刷新页面' : '请选择省 / 市 / 区'}
      loading={!library && !failed}
      disabled={failed}
      status={status}
      showSearch={{ filter: searchFilter, limit: 50 }}
      expandTrigger="click"
      classNames={{ popup: { root: 'addr-region-popup' } }}
      style={{ width: '100%' }}
    />
  );
}
