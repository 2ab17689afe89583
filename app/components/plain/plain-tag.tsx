import type { HTMLAttributes } from 'react';
import './plain.css';

/** A tag with the look of antd's Tag (outlined red, or solid in the brand's text shade), no JavaScript of its own. */
export function PlainTag({ tone, className, ...rest }: { tone?: 'red' | 'solid' } & HTMLAttributes<HTMLSpanElement>) {
  return <span {...rest} className={['plain-tag', tone ? `plain-tag--${tone}` : '', className ?? ''].filter(Boolean).join(' ')} />;
}
