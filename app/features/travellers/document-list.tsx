// A saved traveller's documents: each with its type, dates and whether it can
// still be used (an expired document, or a photo taken over six months ago,
// is kept but no longer offered), and an upload row (type, taken date, expiry,
// file). Files are checked by the server like every upload.
import { DeleteOutlined, FileOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Popconfirm, Select, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import type { TravellerView } from '../../../common/contracts/traveller';
import { TRAVELLER_DOCUMENT_TYPES, type TravellerDocumentType } from '../../../common/traveller';
import { ApiError, api, apiUpload } from '../../lib/api-client';
import { toast } from '../../lib/toast';

const TYPE_OPTIONS = Object.entries(TRAVELLER_DOCUMENT_TYPES).map(([value, label]) => ({ value: value as TravellerDocumentType, label }));

export function DocumentList({ traveller, onChanged }: { traveller: TravellerView; onChanged: () => void }) {
  const [docType, setDocType] = useState<TravellerDocumentType>('passport');
  const [taken, setTaken] = useState<Dayjs | null>(null);
  const [expiry, setExpiry] = useState<Dayjs | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const send = async (file: File) => {
    const form = new FormData();
    form.append('traveller_id', String(traveller.traveller_id));
    form.append('doc_type', docType);
    if (taken) form.append('taken_date', taken.format('YYYY-MM-DD'));
    if (expiry) form.append('expiry_date', expiry.format('YYYY-MM-DD'));
    form.append('file', file);
    setBusy(true);
    try {
      await apiUpload('/www/traveller/document_upload', form);
      toast.success(`${TRAVELLER_DOCUMENT_TYPES[docType]}已保存`);
      setTaken(null);
      setExpiry(null);
      onChanged();
    } catch (error) {
      if (!(error instanceof ApiError)) toast.error('上传失败，请重试');
    } finally {
      setBusy(false);
    }
  };

  const remove = async (documentId: number) => {
    try {
      const result = await api('/www/traveller/document_delete', { document_id: documentId });
      toast.success(result.kept_for_orders ? '证件已删除；该文件仍被订单使用，将随订单保留' : '证件已删除');
      onChanged();
    } catch (error) {
      if (!(error instanceof ApiError)) toast.error('删除失败，请重试');
    }
  };

  return (
    <section className="tv-docs" aria-label={`${traveller.name}的证件`}>
      <h3 className="tv-docs-title">证件</h3>
      {traveller.documents.length === 0 ? <p className="tv-muted">尚未保存证件</p> : null}
      <ul className="tv-doc-list">
        {traveller.documents.map((doc) => (
          <li key={doc.document_id} className="tv-doc" data-testid="traveller-document" data-doc-type={doc.doc_type}>
            <a href={doc.url} target="_blank" rel="noreferrer" className="tv-doc-name">
              <FileOutlined /> {doc.doc_type_label}
            </a>
            <span className="tv-muted tv-doc-dates">
              {doc.taken_date ? `拍摄 ${doc.taken_date}` : null}
              {doc.taken_date && doc.expiry_date ? ' · ' : null}
              {doc.expiry_date ? `有效期至 ${doc.expiry_date}` : null}
            </span>
            {doc.usable ? <Tag color="green">可使用</Tag> : <Tag color="orange">{doc.unusable_reason}，不再提供</Tag>}
            <Popconfirm title="删除该证件？" okText="删除" cancelText="取消" okButtonProps={{ danger: true }} onConfirm={() => remove(doc.document_id)}>
              <Button size="small" type="text" danger icon={<DeleteOutlined />} aria-label={`删除${doc.doc_type_label}`} />
            </Popconfirm>
          </li>
        ))}
      </ul>
      <div className="tv-upload" data-testid="traveller-upload">
        <Select value={docType} onChange={setDocType} options={TYPE_OPTIONS} className="tv-upload-type" aria-label="证件类型" data-testid="document-type" />
        <DatePicker
          value={taken}
          onChange={setTaken}
          placeholder={docType === 'photo' ? '拍摄日期（必填）' : '拍摄日期'}
          disabledDate={(day) => day.isAfter(dayjs())}
          aria-label="拍摄日期"
          data-testid="document-taken"
        />
        <DatePicker
          value={expiry}
          onChange={setExpiry}
          placeholder={docType === 'passport' ? '有效期至（必填）' : '有效期至'}
          aria-label="有效期至"
          data-testid="document-expiry"
        />
        <Button icon={<UploadOutlined />} loading={busy} onClick={() => input.current?.click()} data-testid="document-upload">
          上传证件
        </Button>
        <input
          ref={input}
          type="file"
          accept={docType === 'photo' ? 'image/jpeg,image/png' : 'image/jpeg,image/png,application/pdf'}
          hidden
          data-testid="document-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void send(file);
          }}
        />
      </div>
    </section>
  );
}
