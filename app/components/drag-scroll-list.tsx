import { useEffect, useRef, type CSSProperties, type HTMLAttributes, type MouseEvent as ReactMouseEvent } from 'react';
import { WHEEL_SCROLL_STEP_PX } from '../../common/constants';

export type DragScrollListProps = HTMLAttributes<HTMLDivElement>;

// Movement below this many pixels is still a click, not a drag.
const DRAG_THRESHOLD_PX = 5;

const LIST_STYLE: CSSProperties = { display: 'flex', overflowX: 'auto', overflowY: 'hidden' };

/**
 * A horizontal list (spec §2.6): the mouse wheel scrolls it sideways by one step per
 * wheel notch, and dragging with the mouse scrolls it, with text selection off during the drag.
 */
export function DragScrollList({ style, onMouseDown, onClickCapture, onDragStart, ...rest }: DragScrollListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  // Set when a drag ends, so the click the browser fires right after it is swallowed.
  const suppressClick = useRef(false);
  const endDrag = useRef<(() => void) | null>(null);

  // React registers wheel listeners as passive, so preventDefault needs a native listener.
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const onWheel = (event: WheelEvent) => {
      // Horizontal gestures (trackpads, shift+wheel) already scroll natively.
      if (event.deltaY === 0 || Math.abs(event.deltaX) > Math.abs(event.deltaY)) return;
      const direction = Math.sign(event.deltaY);
      const canScroll = direction > 0 ? list.scrollLeft + list.clientWidth < list.scrollWidth - 1 : list.scrollLeft > 0;
      // At either end the page scrolls as usual.
      if (!canScroll) return;
      event.preventDefault();
      list.scrollLeft += direction * WHEEL_SCROLL_STEP_PX;
    };
    list.addEventListener('wheel', onWheel, { passive: false });
    return () => list.removeEventListener('wheel', onWheel);
  }, []);

  useEffect(() => () => endDrag.current?.(), []);

  const handleMouseDown = (event: ReactMouseEvent<HTMLDivElement>) => {
    onMouseDown?.(event);
    const list = listRef.current;
    if (event.button !== 0 || !list) return;
    const startX = event.clientX;
    const startScrollLeft = list.scrollLeft;
    const body = document.body;
    const previousUserSelect = body.style.userSelect;
    let dragging = false;

    const onMove = (move: MouseEvent) => {
      const dx = move.clientX - startX;
      if (!dragging && Math.abs(dx) < DRAG_THRESHOLD_PX) return;
      if (!dragging) {
        dragging = true;
        body.style.userSelect = 'none';
        window.getSelection()?.removeAllRanges();
      }
      list.scrollLeft = startScrollLeft - dx;
    };
    const finish = () => {
      window.removeEventListener('mousemove', onMove);
      window.removeEventListener('mouseup', onUp);
      if (dragging) body.style.userSelect = previousUserSelect;
      endDrag.current = null;
    };
    const onUp = () => {
      finish();
      if (!dragging) return;
      suppressClick.current = true;
      // The click follows mouseup within the same input event; if the mouse was released
      // outside the list no click comes, so the flag must not outlive this turn.
      setTimeout(() => {
        suppressClick.current = false;
      });
    };
    endDrag.current?.();
    endDrag.current = finish;
    window.addEventListener('mousemove', onMove);
    window.addEventListener('mouseup', onUp);
  };

  const handleClickCapture = (event: ReactMouseEvent<HTMLDivElement>) => {
    if (suppressClick.current) {
      suppressClick.current = false;
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    onClickCapture?.(event);
  };

  return (
    <div
      {...rest}
      ref={listRef}
      style={{ ...LIST_STYLE, ...style }}
      onMouseDown={handleMouseDown}
      onClickCapture={handleClickCapture}
      onDragStart={(event) => {
        // Native image/link dragging would steal the mouse from the drag-scroll.
        event.preventDefault();
        onDragStart?.(event);
      }}
    />
  );
}
