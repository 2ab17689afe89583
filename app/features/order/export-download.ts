// The order export's download (issue 29): the file is fetched with the page's
// session cookie, so a refusal (an empty selection, a reversed range) comes
// back in the envelope and is shown as a toast instead of a page of JSON; a
// file is handed to the browser under the server's Chinese name.
import { toast } from '../../lib/toast';

export async function downloadExport(href: string): Promise<boolean> {
  let response: Response;
  try {
    response = await fetch(href, { credentials: 'same-origin' });
  } catch {
    toast.error('网络异常，请重试');
    return false;
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    const answer = (await response.json().catch(() => null)) as { msg?: string } | null;
    toast.error(answer?.msg ?? '导出失败，请重试');
    return false;
  }
  const blob = await response.blob();
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const name = encoded ? decodeURIComponent(encoded) : href.includes('.csv') ? '订单导出.csv' : '订单导出.xlsx';
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return true;
}
