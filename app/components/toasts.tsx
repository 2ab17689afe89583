// antd's themed message API for the toast channel (app/lib/toast.ts), loaded
// by the root with the first toast.
import { message } from 'antd';
import { useEffect } from 'react';
import { setToastApi } from '../lib/toast';

export default function Toasts() {
  const [api, holder] = message.useMessage();
  useEffect(() => setToastApi(api), [api]);
  return holder;
}
