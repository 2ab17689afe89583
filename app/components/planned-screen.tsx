import { Result } from 'antd';

/** A screen that a later issue builds; it says so plainly instead of pretending. */
export function PlannedScreen({ screen, issue }: { screen: string; issue: string }) {
  return (
    <div className="page">
      <Result status="info" title={`${screen}（建设中）`} subTitle={`此页面尚未上线，将在「${issue}」中实现。`} />
    </div>
  );
}
