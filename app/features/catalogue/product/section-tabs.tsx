// The sticky tab bar of spec 2.2: in-page anchors (plain links, so they work
// without JavaScript) whose active tab follows the scroll position. Clicking
// scrolls smoothly; the sections' scroll-margin-top keeps them clear of the
// 64px site header and this bar.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { SECTION_IDS, type SectionKey } from './product-model';

/** Height of the sticky site header (app/components/site-header.css). */
export const SITE_HEADER_HEIGHT_PX = 64;
/** Sub-pixel layout and rounding: a section this close to the line counts as reached. */
const SPY_TOLERANCE_PX = 4;
/** Sections scroll to 8px below the tab bar (scroll-margin-top in the stylesheet). */
const SECTION_GAP_PX = 8;
/** No scroll event for this long: a smooth scroll has ended (where scrollend is missing). */
const SCROLL_IDLE_MS = 150;
/** A click whose smooth scroll has not started by then needed none. */
const SCROLL_START_MS = 600;
/** The longest a click keeps its tab against the scroll position (a user scrolling meanwhile). */
const CLICK_SCROLL_MAX_MS = 2000;

export function SectionTabs({ reviews }: { reviews: number }) {
  const tabs: Array<{ key: SectionKey; label: string }> = [
    { key: 'basic', label: '基本信息' },
    { key: 'materials', label: '办签资料' },
    { key: 'process', label: '办理流程' },
    { key: 'reviews', label: `用户评价(${reviews})` },
  ];
  const [active, setActive] = useState<SectionKey>('basic');
  const barRef = useRef<HTMLElement>(null);
  /** While a click's smooth scroll runs, the spy keeps the clicked tab. */
  const scrollingTo = useRef<SectionKey | null>(null);
  const releaseTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const releaseRef = useRef<() => void>(() => {});
  const clickedAt = useRef(0);

  useEffect(() => {
    const keys: SectionKey[] = ['basic', 'materials', 'process', 'reviews'];
    const last: SectionKey = 'reviews';
    let frame = 0;

    const measure = () => {
      frame = 0;
      if (scrollingTo.current) return;
      // A section is current once its top has reached the bottom of the tab bar (scroll-margin-top puts it there).
      const line = SITE_HEADER_HEIGHT_PX + (barRef.current?.offsetHeight ?? 0) + SECTION_GAP_PX + SPY_TOLERANCE_PX;
      let current: SectionKey = 'basic';
      for (const key of keys) {
        const section = document.getElementById(SECTION_IDS[key]);
        if (section && section.getBoundingClientRect().top <= line) current = key;
      }
      // At the very bottom the last section may be too short to reach the line.
      const root = document.documentElement;
      if (window.scrollY > 0 && window.scrollY + window.innerHeight >= root.scrollHeight - 2) {
        const lastSection = document.getElementById(SECTION_IDS[last]);
        if (lastSection && lastSection.getBoundingClientRect().top < window.innerHeight) current = last;
      }
      setActive(current);
    };
    /** The clicked section has arrived under the tab bar, or the page cannot scroll further. */
    const arrived = (target: SectionKey) => {
      const section = document.getElementById(SECTION_IDS[target]);
      if (!section) return true;
      const offset = section.getBoundingClientRect().top - (parseFloat(getComputedStyle(section).scrollMarginTop) || 0);
      if (Math.abs(offset) <= SPY_TOLERANCE_PX) return true;
      // Still below its place: only the page bottom stops it; above: only the top.
      const root = document.documentElement;
      return offset > 0 ? window.scrollY + window.innerHeight >= root.scrollHeight - 2 : window.scrollY <= 0;
    };
    /** force: give up waiting for the section to arrive. */
    const release = (force: boolean) => {
      const target = scrollingTo.current;
      if (!target) return;
      // A scrollend left over from an earlier scroll must not end the click's scroll.
      if (!force && !arrived(target)) return;
      clearTimeout(releaseTimer.current);
      scrollingTo.current = null;
      // The clicked section stays active while it is in view, even where the
      // page bottom kept it from reaching the tab bar.
      const top = document.getElementById(SECTION_IDS[target])?.getBoundingClientRect().top;
      if (top !== undefined && top >= SITE_HEADER_HEIGHT_PX && top < window.innerHeight) setActive(target);
      else measure();
    };
    const onScrollEnd = () => release(false);
    /** Scrolling paused: release once arrived, or after CLICK_SCROLL_MAX_MS whatever happened. */
    const onIdle = () => {
      if (!scrollingTo.current) return;
      release(performance.now() - clickedAt.current > CLICK_SCROLL_MAX_MS);
      if (scrollingTo.current) releaseTimer.current = setTimeout(onIdle, SCROLL_IDLE_MS);
    };
    releaseRef.current = onIdle;
    const onScroll = () => {
      if (scrollingTo.current) {
        // Released by scrollend, or once the scroll events stop where scrollend is missing.
        clearTimeout(releaseTimer.current);
        releaseTimer.current = setTimeout(onIdle, SCROLL_IDLE_MS);
        return;
      }
      if (!frame) frame = requestAnimationFrame(measure);
    };

    measure();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('scrollend', onScrollEnd);
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('scrollend', onScrollEnd);
      window.removeEventListener('resize', onScroll);
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(releaseTimer.current);
    };
  }, []);

  // Keep the active tab visible when the bar scrolls sideways (phones).
  useEffect(() => {
    const bar = barRef.current;
    const tab = bar?.querySelector<HTMLElement>(`[data-tab="${active}"]`);
    if (!bar || !tab || bar.scrollWidth <= bar.clientWidth) return;
    bar.scrollTo({ left: tab.offsetLeft - (bar.clientWidth - tab.offsetWidth) / 2, behavior: 'smooth' });
  }, [active]);

  const go = (event: MouseEvent<HTMLAnchorElement>, key: SectionKey) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const section = document.getElementById(SECTION_IDS[key]);
    if (!section) return;
    event.preventDefault();
    setActive(key);
    scrollingTo.current = key;
    clickedAt.current = performance.now();
    // If the section is already in place no scroll event comes: check anyway.
    clearTimeout(releaseTimer.current);
    releaseTimer.current = setTimeout(() => releaseRef.current(), SCROLL_START_MS);
    section.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <nav className="pd-tabs" ref={barRef} aria-label="商品详情导航" data-testid="product-tabs">
      {tabs.map((tab) => (
        <a
          key={tab.key}
          href={`#${SECTION_IDS[tab.key]}`}
          data-tab={tab.key}
          className={tab.key === active ? 'pd-tab pd-tab--active' : 'pd-tab'}
          aria-current={tab.key === active ? 'location' : undefined}
          onClick={(event) => go(event, tab.key)}
        >
          {tab.label}
        </a>
      ))}
    </nav>
  );
}
