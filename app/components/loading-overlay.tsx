import { Spin } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { LOADING_DEFAULT_TEXT } from '../../common/constants';

export type LoadingSize = 'small' | 'default' | 'large';

export interface LoadingOverlayProps {
  loading: boolean;
  loadingText?: ReactNode;
  loadingSize?: LoadingSize;
  className?: string;
  style?: CSSProperties;
  children?: ReactNode;
}

// antd 6 deprecates size="default" in favour of "medium"; the spec's names stay the public API.
const SPIN_SIZES = { small: 'small', default: 'medium', large: 'large' } as const;

/**
 * The loading overlay of spec §2.6 / §4. Spin in nested mode keeps the children
 * mounted either way and renders the spinner layer only while `loading` is true.
 */
export function LoadingOverlay({ loading, loadingText = LOADING_DEFAULT_TEXT, loadingSize = 'default', className, style, children }: LoadingOverlayProps) {
  return (
    <Spin spinning={loading} description={loadingText} size={SPIN_SIZES[loadingSize]} className={className} style={style}>
      {children}
    </Spin>
  );
}
