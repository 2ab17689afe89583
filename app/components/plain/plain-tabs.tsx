import { useId, type KeyboardEvent, type ReactNode } from 'react';
import './plain.css';

export interface PlainTabItem {
  key: string;
  label: ReactNode;
}

interface PlainTabsProps {
  items: PlainTabItem[];
  activeKey: string;
  onChange: (key: string) => void;
  label: string;
  /** The active tab's panel; only it is rendered (in the server HTML too). */
  children: ReactNode;
  className?: string;
}

/**
 * Tabs after the WAI-ARIA tab pattern: a tablist of buttons (arrow keys,
 * Home and End move and select), one tabpanel labelled by its tab. Without
 * JavaScript the first (active) panel reads as it is.
 */
export function PlainTabs({ items, activeKey, onChange, label, children, className }: PlainTabsProps) {
  const id = useId();
  const tabId = (key: string) => `${id}-tab-${key}`;
  const panelId = `${id}-panel`;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.key === activeKey);
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % items.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + items.length) % items.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? items.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    const key = items[next]!.key;
    onChange(key);
    document.getElementById(tabId(key))?.focus();
  };

  return (
    <div className={className}>
      <div role="tablist" aria-label={label} className="plain-tablist" onKeyDown={onKeyDown}>
        {items.map((item) => {
          const selected = item.key === activeKey;
          return (
            <button
              key={item.key}
              type="button"
              role="tab"
              id={tabId(item.key)}
              className="plain-tab"
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.key)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(activeKey)} className="plain-tabpanel" tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
