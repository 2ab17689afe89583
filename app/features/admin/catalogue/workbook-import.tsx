// The catalogue workbook on 产品管理 (issue 26): 下载工作簿 saves the whole
// catalogue (the same .xlsx as `npm run catalogue:export`); 导入工作簿 uploads
// an edited one and opens a preview of what it would change — per sheet the
// rows added, changed and removed, or every bad row with its sheet, row,
// column and reason — and only 确认导入 applies it (all or nothing). The
// confirmation sends the same file with the preview's sha256.
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Table, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { CATALOGUE_WORKBOOK_MAX_BYTES, type WorkbookPreview } from '../../../../common/contracts/catalogue-admin';
import { toast } from '../../../lib/toast';
import { adminApi, adminUpload } from '../admin-api';

const CHANGE_LABELS = { added: { text: '新增', color: 'green' }, changed: { text: '修改', color: 'blue' }, removed: { text: '删除', color: 'red' } } as const;

function saveFile(fileName: string, base64: string) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function WorkbookImport() {
  const input = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<'export' | 'preview' | 'import' | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<WorkbookPreview | null>(null);

  const download = async () => {
    setBusy('export');
    try {
      const answer = await adminApi('/admin-api/catalogue/workbook_export', {});
      saveFile(answer.file_name, answer.content_base64);
    } catch {
      // The client has shown the message.
    } finally {
      setBusy(null);
    }
  };

  const choose = async (chosen: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!chosen) return;
    // The server checks the content and size too; this spares a 10 MB upload that would be refused.
    if (chosen.size > CATALOGUE_WORKBOOK_MAX_BYTES) return void toast.error('工作簿过大，不能超过 10 MB');
    setBusy('preview');
    try {
      const form = new FormData();
      form.append('file', chosen);
      setPreview(await adminUpload('/admin-api/catalogue/workbook_preview', form));
      setFile(chosen);
    } catch {
      // The client has shown the message.
    } finally {
      setBusy(null);
    }
  };

  const close = () => {
    setPreview(null);
    setFile(null);
  };

  const confirm = async () => {
    if (!file || !preview) return;
    setBusy('import');
    try {
      const form = new FormData();
      form.append('sha256', preview.sha256);
      form.append('file', file);
      await adminUpload('/admin-api/catalogue/workbook_import', form);
      toast.success('已导入工作簿');
      close();
      await revalidator.revalidate();
    } catch {
      // The client has shown the message; the preview stays open.
    } finally {
      setBusy(null);
    }
  };

  const changed = preview ? preview.sheets.filter((sheet) => sheet.rows.length > 0) : [];
  const bad = preview !== null && preview.problems.length > 0;
  return (
    <>
      <Button icon={<DownloadOutlined />} loading={busy === 'export'} onClick={download}>
        下载工作簿
      </Button>
      <Button icon={<UploadOutlined />} loading={busy === 'preview'} onClick={() => input.current?.click()}>
        导入工作簿
      </Button>
      <input
        ref={input}
        type="file"
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hidden
        aria-label="选择要导入的工作簿"
        data-testid="workbook-file"
        onChange={(event) => void choose(event.target.files?.[0])}
      />
      <Modal
        open={preview !== null}
        title="导入工作簿：预览改动"
        width={860}
        onCancel={close}
        footer={
          <Space>
            <Button onClick={close}>取消</Button>
            <Button type="primary" disabled={bad || changed.length === 0} loading={busy === 'import'} onClick={confirm}>
              确认导入
            </Button>
          </Space>
        }
      >
        {preview ? (
          <div className="cat-workbook-preview" data-testid="workbook-preview">
            <p className="cat-muted">
              {preview.file_name}（{(preview.size_bytes / 1024).toFixed(1)} KB）
            </p>
            {bad ? (
              <>
                <Alert type="error" showIcon title={`工作簿有 ${preview.problems.length} 处错误，改正后重新上传；有错误时不会导入任何内容。`} />
                <Table
                  className="cat-workbook-table"
                  size="small"
                  rowKey={(row) => `${row.sheet}-${row.row}-${row.column}-${row.reason}`}
                  pagination={preview.problems.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
                  dataSource={preview.problems}
                  columns={[
                    { title: '工作表', dataIndex: 'sheet', width: 110 },
                    { title: '行', dataIndex: 'row', width: 60, render: (row: number) => (row > 0 ? row : '—') },
                    { title: '列', dataIndex: 'column', width: 160 },
                    { title: '原因', dataIndex: 'reason' },
                  ]}
                />
              </>
            ) : changed.length === 0 ? (
              <Alert type="info" showIcon title="工作簿与当前目录相同，没有需要导入的改动。" />
            ) : (
              <>
                <Alert type="warning" showIcon title="确认导入后以下改动一次全部生效；已下的订单保留下单时的价格和资料清单。" />
                {changed.map((sheet) => (
                  <section key={sheet.sheet} className="cat-workbook-sheet" aria-label={`工作表 ${sheet.sheet}`}>
                    <h3>
                      {sheet.sheet}
                      <span className="cat-muted">
                        新增 {sheet.added} · 修改 {sheet.changed} · 删除 {sheet.removed}
                      </span>
                    </h3>
                    <ul>
                      {sheet.rows.map((row) => (
                        <li key={`${row.change}-${row.row}-${row.label}`} data-testid="workbook-change">
                          <Tag color={CHANGE_LABELS[row.change].color}>{CHANGE_LABELS[row.change].text}</Tag>
                          {row.row > 0 ? <span className="cat-muted">第 {row.row} 行</span> : null}
                          <span>{row.label}</span>
                          {row.values.length > 0 ? (
                            <ul className="cat-workbook-values">
                              {row.values.map((value) => (
                                <li key={value.column} title={`${value.before} → ${value.after}`}>
                                  <span className="cat-muted">{value.column}：</span>
                                  <del>{value.before || '（空）'}</del> → <ins>{value.after || '（空）'}</ins>
                                </li>
                              ))}
                            </ul>
                          ) : null}
                        </li>
                      ))}
                    </ul>
                  </section>
                ))}
              </>
            )}
          </div>
        ) : null}
      </Modal>
    </>
  );
}
