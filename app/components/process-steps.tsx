import type { ReactNode } from 'react';
import './process-steps.css';

export interface ProcessStep {
  title: ReactNode;
  content?: ReactNode;
  icon?: ReactNode;
}

/** A how-it-works strip: every step shown alike (none is "current"), titles under the icons; a column on a phone. Plain markup, no JavaScript. */
export function ProcessSteps({ steps }: { steps: ProcessStep[] }) {
  return (
    <ol className="process-steps">
      {steps.map((step, index) => (
        <li key={index} className="process-step">
          <span className="process-step-icon" aria-hidden="true">
            {step.icon ?? index + 1}
          </span>
          <span className="process-step-title">{step.title}</span>
          {step.content ? <span className="process-step-content">{step.content}</span> : null}
        </li>
      ))}
    </ol>
  );
}
