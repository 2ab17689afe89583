// Uploads on their way (a progress bar each, from the bytes really sent) and
// refused ones (the server's message in red, until dismissed).
import { CloseOutlined, ExclamationCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { Button, Progress } from 'antd';
import { sizeText } from './upload-model';
import type { InFlight } from './use-uploads';

export function InFlightList({ items, onDismiss }: { items: InFlight[]; onDismiss: (uid: string) => void }) {
  if (items.length === 0) return null;
  return (
    <ul className="up-inflight">
      {items.map((item) =>
        item.status === 'uploading' ? (
          <li key={item.uid} className="up-inflight-item" data-testid="upload-progress">
            <div className="up-inflight-head">
              <LoadingOutlined className="up-inflight-icon" />
              <span className="up-inflight-name">{item.replaceFileId ? `替换为 ${item.name}` : item.name}</span>
              <span className="up-muted">{sizeText(item.size)}</span>
            </div>
            <Progress percent={item.percent} size="small" status="active" />
          </li>
        ) : (
          <li key={item.uid} className="up-inflight-item up-inflight-error" role="alert" data-testid="upload-refusal">
            <div className="up-inflight-head">
              <ExclamationCircleFilled className="up-inflight-icon" />
              <span className="up-inflight-name">{item.name}</span>
              <Button type="text" size="small" icon={<CloseOutlined />} aria-label="关闭" onClick={() => onDismiss(item.uid)} />
            </div>
            <div className="up-inflight-message">{item.message}</div>
          </li>
        ),
      )}
    </ul>
  );
}
