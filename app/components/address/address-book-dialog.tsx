// The select-address dialog and the peer address dialog of spec 2.5: the
// enterprise's addresses of one kind, choose one, add, edit or delete, in
// one dialog that switches between its list and its form.
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Popconfirm } from 'antd';
import { useEffect, useEffectEvent, useState } from 'react';
import type { AddressView } from '../../../common/contracts/address';
import { ADDRESS_LIMITS } from '../../../common/contracts/rules';
import { type AddressKind } from '../../../common/address';
import { AppDialog } from '../app-dialog';
import { LoadingOverlay } from '../loading-overlay';
import { api } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { AddressCardBody } from './address-card';
import { AddressForm } from './address-form';
import './address.css';

const TEXTS = {
  return: { title: '选择回寄地址', subtitle: '办理完成后，护照将寄回此地址', add: '新增回寄地址', empty: '还没有回寄地址' },
  peer: { title: '同行地址', subtitle: '选择同行地址后，护照将直接寄往该合作同行', add: '新增同行地址', empty: '还没有同行地址' },
} as const;

export interface AddressBookDialogProps {
  kind: AddressKind;
  open: boolean;
  onClose: () => void;
  /** The address currently chosen for the order (highlighted). */
  selectedId: number | null;
  onSelect: (address: AddressView) => void;
  /** The book changed (added, edited, deleted): the page refreshes what it shows. */
  onChanged?: (list: AddressView[]) => void;
}

type Mode = { kind: 'list' } | { kind: 'form'; address: AddressView | null };

export function AddressBookDialog({ kind, open, onClose, selectedId, onSelect, onChanged }: AddressBookDialogProps) {
  const [list, setList] = useState<AddressView[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [reloads, setReloads] = useState(0);
  const texts = TEXTS[kind];
  // A notification, not an input of the fetch: the latest callback, without refetching when it changes.
  const notifyChanged = useEffectEvent((latest: AddressView[]) => onChanged?.(latest));

  useEffect(() => {
    if (!open) {
      setMode({ kind: 'list' });
      return;
    }
    let live = true;
    setLoading(true);
    api('/www/address/address_list', { kind })
      .then(
        (result) => {
          if (!live) return;
          setList(result.list);
          notifyChanged(result.list);
        },
        () => undefined,
      )
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, kind, reloads]);

  const remove = async (address: AddressView) => {
    try {
      await api('/www/address/address_delete', { address_id: address.address_id });
      toast.success('地址已删除');
      setReloads((n) => n + 1);
    } catch {
      // toasted by the API client
    }
  };

  const full = (list?.length ?? 0) >= ADDRESS_LIMITS.maxPerKind;
  const inForm = mode.kind === 'form';

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={inForm ? (mode.address ? '编辑地址' : texts.add) : texts.title}
      subtitle={inForm ? undefined : texts.subtitle}
      width={640}
      destroyOnHidden
      className="addr-dialog"
    >
      <div data-testid={`address-dialog-${kind}`}>
        {inForm ? (
          <AddressForm
            kind={kind}
            address={mode.address}
            onCancel={() => setMode({ kind: 'list' })}
            onSaved={(saved) => {
              setMode({ kind: 'list' });
              setReloads((n) => n + 1);
              // A new address is most likely the one wanted: choose it at once.
              if (!mode.address) onSelect(saved);
            }}
          />
        ) : (
          <LoadingOverlay loading={loading}>
            {/* The empty text outside the list: a list role may hold only its items (axe aria-required-children). */}
            {list && list.length === 0 ? <Empty description={texts.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} /> : null}
            <div className="addr-list" role={list && list.length > 0 ? 'list' : undefined}>
              {(list ?? []).map((address) => (
                <div
                  key={address.address_id}
                  role="listitem"
                  className={address.address_id === selectedId ? 'addr-item addr-item-selected' : 'addr-item'}
                  data-testid="address-item"
                >
                  <button type="button" className="addr-item-choose" onClick={() => onSelect(address)} aria-pressed={address.address_id === selectedId}>
                    <AddressCardBody address={address} />
                  </button>
                  <div className="addr-item-actions">
                    <Button type="text" size="small" icon={<EditOutlined />} onClick={() => setMode({ kind: 'form', address })}>
                      编辑
                    </Button>
                    <Popconfirm title="删除这个地址？" description="已确认的订单不受影响" okText="删除" cancelText="取消" onConfirm={() => remove(address)}>
                      <Button type="text" size="small" danger icon={<DeleteOutlined />}>
                        删除
                      </Button>
                    </Popconfirm>
                  </div>
                </div>
              ))}
            </div>
            <Button
              block
              type="dashed"
              icon={<PlusOutlined />}
              disabled={full}
              onClick={() => setMode({ kind: 'form', address: null })}
              className="addr-add"
              data-testid={`address-add-${kind}`}
            >
              {full ? `最多 ${ADDRESS_LIMITS.maxPerKind} 个地址` : texts.add}
            </Button>
          </LoadingOverlay>
        )}
      </div>
    </AppDialog>
  );
}
