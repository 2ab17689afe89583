// The uploads in flight on the page, each with its real progress (bytes sent,
// from XMLHttpRequest) and, when refused, the server's message, which stays
// under its item until dismissed or retried.
import { useCallback, useRef, useState } from 'react';
import type { MaterialUploadResult } from '../../../common/contracts/material';
import { ApiError, apiUpload } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { precheck, targetKey, type UploadTarget, uploadForm } from './upload-model';

export interface InFlight {
  uid: string;
  /** targetKey() of the item it belongs to. */
  key: string;
  name: string;
  size: number;
  percent: number;
  status: 'uploading' | 'error';
  message?: string;
  replaceFileId: number | null;
}

export function useUploads(userOrderId: number, maxBytes: number, onUploaded: (target: UploadTarget, result: MaterialUploadResult) => void) {
  const [items, setItems] = useState<InFlight[]>([]);
  const counter = useRef(0);
  const update = (uid: string, change: Partial<InFlight>) => setItems((all) => all.map((item) => (item.uid === uid ? { ...item, ...change } : item)));

  const start = useCallback(
    (target: UploadTarget, file: File, replaceFileId: number | null = null): Promise<void> => {
      counter.current += 1;
      const uid = `u${counter.current}`;
      const base = { uid, key: targetKey(target), name: file.name, size: file.size, percent: 0, replaceFileId };
      const problem = precheck(file, maxBytes);
      if (problem) {
        setItems((all) => [...all, { ...base, status: 'error', message: problem }]);
        toast.error(`${file.name}：${problem}`);
        return Promise.resolve();
      }
      setItems((all) => [...all, { ...base, status: 'uploading' }]);
      return apiUpload('/www/order/material_upload', uploadForm(userOrderId, target, file, replaceFileId), {
        toast: false,
        onProgress: (percent) => update(uid, { percent }),
      }).then(
        (result) => {
          setItems((all) => all.filter((item) => item.uid !== uid));
          // The file's tile appearing is the confirmation; toasts are kept for refusals.
          onUploaded(target, result);
        },
        (error: unknown) => {
          if (error instanceof ApiError && error.httpStatus === 401) {
            setItems((all) => all.filter((item) => item.uid !== uid));
            return;
          }
          const message = error instanceof ApiError ? error.message : '上传失败，请重试';
          update(uid, { status: 'error', message });
          toast.error(`${file.name}：${message}`);
        },
      );
    },
    [userOrderId, maxBytes, onUploaded],
  );

  const dismiss = useCallback((uid: string) => setItems((all) => all.filter((item) => item.uid !== uid)), []);

  return { items, start, dismiss, busy: items.some((item) => item.status === 'uploading') };
}
