import { Steps, type StepsProps } from 'antd';

type Step = NonNullable<StepsProps['items']>[number];

/** A how-it-works strip: every step shown alike (none is "current"), titles under the icons. */
export function ProcessSteps({ steps }: { steps: Step[] }) {
  return <Steps current={-1} titlePlacement="vertical" items={steps.map((step) => ({ ...step, status: 'process' as const }))} />;
}
