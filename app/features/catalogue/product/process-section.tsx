// The process section of spec 2.2: numbered steps 01, 02, … and the
// '温馨提示' reminder box, collapsed at 72px with '展开全部' / '收起' — the
// toggle only when the content is taller than that. Without JavaScript the
// box is shown whole (see the scripting media query in the stylesheet).
import { BulbOutlined, DownOutlined, UpOutlined } from '@ant-design/icons';
import { useLayoutEffect, useRef, useState, useEffect } from 'react';
import type { VisaProductDetail } from '../../../../common/contracts/catalogue';
import { REMINDER_COLLAPSED_HEIGHT_PX } from '../../../../common/constants';
import { PlainButton } from '../../../components/plain/plain-button';
import { SECTION_IDS, stepNumber } from './product-model';

// useLayoutEffect warns during server rendering; the measurement is browser-only.
const useBrowserLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

export function ReminderBox({ text }: { text: string }) {
  const [expanded, setExpanded] = useState(false);
  const [overflows, setOverflows] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);

  useBrowserLayoutEffect(() => {
    const content = contentRef.current;
    if (!content) return;
    // The observer's first call comes after the browser's own layout, before it paints: no
    // forced layout here, which during hydration would lay out the whole page at once.
    const observer = new ResizeObserver(() => setOverflows(content.scrollHeight > REMINDER_COLLAPSED_HEIGHT_PX + 1));
    observer.observe(content);
    return () => observer.disconnect();
  }, [text]);

  return (
    <div className="pd-reminder" data-testid="product-reminder">
      <div className="pd-reminder-title">
        <BulbOutlined /> 温馨提示
      </div>
      <div
        className={expanded ? 'pd-reminder-body' : 'pd-reminder-body pd-reminder-body--collapsed'}
        style={expanded ? undefined : { maxHeight: REMINDER_COLLAPSED_HEIGHT_PX }}
        data-testid="product-reminder-body"
      >
        <div ref={contentRef} className="pd-reminder-content">
          {text}
        </div>
      </div>
      {overflows ? (
        <PlainButton variant="link" className="pd-reminder-toggle" onClick={() => setExpanded((value) => !value)} aria-expanded={expanded}>
          {expanded ? '收起' : '展开全部'} {expanded ? <UpOutlined /> : <DownOutlined />}
        </PlainButton>
      ) : null}
    </div>
  );
}

export function ProcessSection({ product }: { product: VisaProductDetail }) {
  return (
    <section id={SECTION_IDS.process} className="pd-card pd-section" data-testid="product-process">
      <div className="pd-section-head">
        <h2 className="pd-section-title">办理流程</h2>
      </div>
      {product.handle_process.length > 0 ? (
        <ol className="pd-steps">
          {product.handle_process.map((step, index) => (
            <li key={index} className="pd-step">
              <span className="pd-step-number">{stepNumber(index)}</span>
              <div className="pd-step-body">
                <div className="pd-step-title">{step.title}</div>
                {step.content ? <div className="pd-step-content">{step.content}</div> : null}
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <div className="pd-empty">暂无办理流程</div>
      )}
      {product.reminder?.trim() ? <ReminderBox text={product.reminder.trim()} /> : null}
    </section>
  );
}
