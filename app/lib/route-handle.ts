// Layout flags of spec 2.1, declared by each route module as `handle`.
import { useMatches } from 'react-router';

export interface RouteHandle {
  /** The header overlays the page (home, download). */
  headerTheme?: 'transparent';
  /** Ordering and order-detail style pages hide the footer. */
  hideFooter?: boolean;
  /** A screen with its own shell (the back office): no site header, footer or customer session. */
  bare?: boolean;
  /** A guest catalogue page: painted before its JavaScript loads, hydrated after (app/lib/paint-first.ts). */
  paintFirst?: boolean;
}

export function useLayoutFlags(): Required<Pick<RouteHandle, 'hideFooter' | 'bare'>> & { transparentHeader: boolean } {
  const handles = useMatches().map((match) => (match.handle ?? {}) as RouteHandle);
  return {
    transparentHeader: handles.some((handle) => handle.headerTheme === 'transparent'),
    hideFooter: handles.some((handle) => handle.hideFooter === true),
    bare: handles.some((handle) => handle.bare === true),
  };
}
