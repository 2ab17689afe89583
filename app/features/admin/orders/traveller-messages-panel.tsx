// 申请人短信与邮件 (issue 29): what each applicant was told on their own mobile
// and e-mail — the approved template and its words, sent, waiting (夜间免打扰,
// 频率限制, 重试), failed with the provider's reason, or not sent (已退订).
// A read only: nothing to act on here.
import { Tag } from 'antd';
import type { TravellerMessagesPanel as Panel } from '../../../../common/contracts/traveller-message';
import { formatDateTime } from '../../../../common/format';

const STATUS_COLORS: Record<string, string> = { sent: 'green', pending: 'blue', sending: 'blue', failed: 'red', skipped: 'default' };

export function TravellerMessagesPanel({ panel }: { panel: Panel }) {
  if (panel.list.length === 0) return <p className="aw-muted">还没有发给申请人本人的短信或邮件。</p>;
  return (
    <table className="aw-table" data-testid="traveller-messages">
      <thead>
        <tr>
          <th>申请人</th>
          <th className="aw-nowrap">渠道</th>
          <th>内容</th>
          <th className="aw-nowrap">状态</th>
          <th>时间</th>
        </tr>
      </thead>
      <tbody>
        {panel.list.map((row) => (
          <tr key={row.message_id} data-testid="traveller-message">
            <td>
              {row.applicant_name}
              <div className="aw-muted">{row.to_address}</div>
            </td>
            <td className="aw-nowrap">{row.channel_label}</td>
            <td>
              <strong>{row.template_label}</strong>
              <div className="aw-muted">{row.text}</div>
            </td>
            <td>
              <Tag color={STATUS_COLORS[row.status]}>{row.status_label}</Tag>
              {row.reason ? <div className="aw-muted">{row.reason}</div> : null}
            </td>
            <td>
              {row.sent_at ? formatDateTime(row.sent_at) : row.next_attempt_at ? `预计 ${formatDateTime(row.next_attempt_at)}` : formatDateTime(row.created_at)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
