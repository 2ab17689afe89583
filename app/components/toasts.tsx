// antd's themed message API for the toast channel (app/lib/toast.ts), loaded
// by the root with the first toast.
import { message } from 'antd';
import { useEffect } from 'react';
import { setToastApi } from '../lib/toast';
import { AntdScope } from './antd-scope';

export default function Toasts() {
  return (
    <AntdScope>
      <ToastHolder />
    </AntdScope>
  );
}

/** Inside the scope: the message API reads the theme where its hook is called. */
function ToastHolder() {
  const [api, holder] = message.useMessage();
  useEffect(() => setToastApi(api), [api]);
  return holder;
}
