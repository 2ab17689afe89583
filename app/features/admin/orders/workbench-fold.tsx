// A collapsed workbench panel (issue 27): its title as a button, its body
// made only once opened — a panel the operator does not open is neither
// rendered on the server nor hydrated (issue 24 item 6: the workbench of a
// 20-applicant order rendered every panel and ~200 file tiles).
import { useState, type ReactNode } from 'react';

export function WorkbenchFold({
  title,
  hint,
  open: initiallyOpen = false,
  testId,
  children,
}: {
  title: string;
  /** A short note shown beside the title while collapsed (a count, a state). */
  hint?: string | null;
  open?: boolean;
  testId: string;
  /** Rendered only while open. */
  children: () => ReactNode;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const bodyId = `fold-${testId}`;
  return (
    <section className="aw-fold" data-testid={testId} data-open={open}>
      <h2 className="aw-fold-title">
        <button type="button" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)} data-testid={`${testId}-toggle`}>
          <span className="aw-fold-caret" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          <span className="aw-fold-name">{title}</span>
          {hint ? <span className="aw-muted aw-fold-hint">{hint}</span> : null}
        </button>
      </h2>
      {open ? <div id={bodyId}>{children()}</div> : null}
    </section>
  );
}
