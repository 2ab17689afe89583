// The process line of the ordering pages (spec 2.1 "upload process with a
// process line"): where the customer is in 填写订单 → 上传资料 → (选择面试时间)
// → 确认订单 → 支付. The interview step shows only when the product needs one.
import { Steps } from 'antd';
import { ORDERING_STEPS, type OrderingStep, orderingSteps } from '../../common/ordering';

export function OrderingSteps({ current, needInterview }: { current: OrderingStep; needInterview: boolean }) {
  const steps = orderingSteps(needInterview);
  return (
    <Steps
      className="ordering-steps"
      size="small"
      // Titles under the icons and never vertical: on a phone the line stays one row high.
      titlePlacement="vertical"
      responsive={false}
      current={steps.indexOf(current)}
      items={steps.map((step) => ({ title: ORDERING_STEPS[step] }))}
      style={{ margin: '16px 0 24px' }}
    />
  );
}
