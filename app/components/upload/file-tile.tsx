// One uploaded file: an image thumbnail (opens the image viewer over the
// item's images) or a PDF card (opens in a new tab), its name, size and
// review state, and — while the order allows it — 替换 and 删除 (confirmed).
import { DeleteOutlined, FilePdfOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Tag, Upload } from 'antd';
import type { MaterialFileView } from '../../../common/contracts/material';
import { openImageViewer, type ViewerImage } from '../image-viewer';
import { isImage, sizeText } from './upload-model';

export interface FileTileProps {
  file: MaterialFileView;
  /** The item's images, for paging in the viewer. */
  gallery: ViewerImage[];
  editable: boolean;
  accept: string;
  onReplace: (file: File) => void;
  onDelete: () => Promise<void>;
}

const REVIEW_COLORS = { pending: undefined, passed: 'success', no_pass: 'error' } as const;

export function FileTile({ file, gallery, editable, accept, onReplace, onDelete }: FileTileProps) {
  const image = isImage(file);
  const index = gallery.findIndex((entry) => entry.src === file.url);
  return (
    <li className="up-file" data-testid="upload-file" data-file-id={file.file_id} data-content-type={file.content_type}>
      {image ? (
        <button
          type="button"
          className="up-file-preview"
          onClick={() => void openImageViewer(gallery, Math.max(index, 0))}
          aria-label={`预览 ${file.file_name}`}
        >
          <img src={file.url} alt={file.file_name} loading="lazy" />
        </button>
      ) : (
        <a className="up-file-preview up-file-pdf" href={file.url} target="_blank" rel="noopener noreferrer" aria-label={`在新窗口打开 ${file.file_name}`}>
          <FilePdfOutlined />
          <span className="up-file-pdf-label">PDF</span>
        </a>
      )}
      <div className="up-file-name" title={file.file_name}>
        {file.file_name}
      </div>
      <div className="up-file-meta">
        <span>{sizeText(file.size)}</span>
        {file.review_status !== 'pending' ? (
          <Tag color={REVIEW_COLORS[file.review_status]} className="up-file-review">
            {file.review_status_label}
          </Tag>
        ) : null}
      </div>
      {editable ? (
        <div className="up-file-actions">
          <Upload
            accept={accept}
            showUploadList={false}
            customRequest={({ file: chosen, onSuccess }) => {
              onReplace(chosen as File);
              onSuccess?.(null);
            }}
          >
            <Button type="link" size="small" icon={<SwapOutlined />} data-testid="upload-file-replace">
              替换
            </Button>
          </Upload>
          <Popconfirm title="删除这个文件？" description="删除后不可恢复" okText="删除" cancelText="取消" okButtonProps={{ danger: true }} onConfirm={onDelete}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="upload-file-delete">
              删除
            </Button>
          </Popconfirm>
        </div>
      ) : null}
    </li>
  );
}
