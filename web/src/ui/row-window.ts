import { useEffect, useState, type RefObject } from 'react';

// Windowing for long tables of fixed-height rows: only the rows in (and just around) the scrolled view
// are in the DOM, so a change to one of 1,500 rows lays out a few dozen, not the whole table.

export interface RowWindow {
  /** Index of the first row rendered. */
  first: number;
  /** One past the last row rendered. */
  end: number;
  /** Height in px of the rows above `first` and below `end`, kept as spacers so the scrollbar is true. */
  above: number;
  below: number;
}

/** The rows to render for a viewport; `overscan` rows beyond each edge keep a fast scroll from showing blanks. */
export function rowWindow(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 10): RowWindow {
  const visibleFirst = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visibleEnd = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  const first = Math.min(count, Math.max(0, visibleFirst - overscan));
  const end = Math.min(count, Math.max(first, visibleEnd + overscan));
  return { first, end, above: first * rowHeight, below: (count - end) * rowHeight };
}

/** The window of `count` rows for the scroll container `ref`, following its scrolling and resizing. */
export function useRowWindow(ref: RefObject<HTMLElement | null>, rowHeight: number, count: number): RowWindow {
  const [view, setView] = useState({ top: 0, height: 800 });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let frame: number | undefined;
    const measure = () => {
      frame = undefined;
      setView((current) =>
        current.top === element.scrollTop && current.height === element.clientHeight ? current : { top: element.scrollTop, height: element.clientHeight },
      );
    };
    const schedule = () => (frame ??= requestAnimationFrame(measure));
    measure();
    element.addEventListener('scroll', schedule, { passive: true });
    const resize = new ResizeObserver(schedule);
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', schedule);
      resize.disconnect();
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return rowWindow(view.top, view.height, rowHeight, count);
}
