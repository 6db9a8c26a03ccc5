import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type RefObject } from 'react';

// Windowing for a long list of items of different heights (a conversation: one-line notices, long
// answers, open tool details): only the items in (and around) the scrolled view are in the DOM. Each
// rendered item's height is measured and kept by its key; an item never rendered counts as `estimate`.
// The scroll position is anchored to the first item in view, so items added above it (an earlier page)
// or measured taller than estimated do not move what the reader is looking at.

export interface MeasuredWindow {
  /** Index of the first item rendered. */
  first: number;
  /** One past the last item rendered. */
  end: number;
  /** Height in px of the items above `first` and below `end`: padding that keeps the scrollbar true. */
  above: number;
  below: number;
}

/** Offsets of each item's top, and the total height last: `offsets[i + 1] - offsets[i]` is item i's height. */
export function itemOffsets(keys: readonly string[], heightOf: (key: string) => number | undefined, estimate: number): number[] {
  const offsets = new Array<number>(keys.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < keys.length; i++) offsets[i + 1] = offsets[i] + (heightOf(keys[i]) ?? estimate);
  return offsets;
}

/** The first index whose item ends below `y` (binary search over the offsets). */
function firstEndingBelow(offsets: readonly number[], y: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid + 1] > y) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** The items to render for a viewport; `overscan` px beyond each edge keep a fast scroll from showing blanks. */
export function measuredWindow(offsets: readonly number[], scrollTop: number, viewportHeight: number, overscan = 600): MeasuredWindow {
  const count = offsets.length - 1;
  const total = offsets[count];
  const top = Math.max(0, scrollTop - overscan);
  const bottom = Math.max(0, scrollTop) + Math.max(0, viewportHeight) + overscan;
  const first = Math.min(count, firstEndingBelow(offsets, top));
  let end = first;
  while (end < count && offsets[end] < bottom) end++;
  return { first, end, above: offsets[first], below: total - offsets[end] };
}

export interface MeasuredList extends MeasuredWindow {
  /** A ref callback for the item with this key (rendered with `data-window-key={key}`): measured while rendered. */
  measure: (element: HTMLElement | null) => void;
  /** Whether the reader scrolled back to within a screen of the start of the list (time to load an earlier page). */
  nearStart: boolean;
  /** Scrolls the container to the item with this key (a third down the view) and renders the window there. */
  scrollToKey: (key: string) => void;
}

const KEY_ATTRIBUTE = 'data-window-key';

/**
 * The first rendered item in view (its bottom below the container's top, its top above its bottom) and
 * how far its top is from the container's top; none while the view shows only the padding (scrolled
 * faster than the window followed).
 */
function anchorOf(container: HTMLElement): { key: string; top: number } | undefined {
  const view = container.getBoundingClientRect();
  for (const item of container.querySelectorAll<HTMLElement>(`[${KEY_ATTRIBUTE}]`)) {
    const box = item.getBoundingClientRect();
    if (box.bottom <= view.top) continue;
    return box.top < view.bottom ? { key: item.getAttribute(KEY_ATTRIBUTE) ?? '', top: box.top - view.top } : undefined;
  }
  return undefined;
}

/** Where the list's first item would start, in the container's scrolled content (what is above the list: a button, a padding). */
function listTop(container: HTMLElement, keys: readonly string[], offsets: readonly number[]): number | undefined {
  const rendered = container.querySelector<HTMLElement>(`[${KEY_ATTRIBUTE}]`);
  const index = rendered ? keys.indexOf(rendered.getAttribute(KEY_ATTRIBUTE) ?? '') : -1;
  if (!rendered || index < 0) return undefined;
  return rendered.getBoundingClientRect().top - container.getBoundingClientRect().top + container.scrollTop - offsets[index];
}

/**
 * The window of `keys` for the scroll container `ref` (give it `overflow-anchor: none`: this hook keeps
 * the view in place itself, in every browser), following its scrolling, its size and the items' sizes.
 * With `stickToEnd`, a view at the end stays at the end as items are added (a live conversation).
 */
export function useMeasuredWindow(ref: RefObject<HTMLElement | null>, keys: readonly string[], estimate: number, stickToEnd = false): MeasuredList {
  // Measured heights by key, mutated in place as items are measured (`measured` counts the changes).
  const [heights] = useState(() => new Map<string, number>());
  const [measured, remeasured] = useReducer((n: number) => n + 1, 0);
  // Unknown until the container was read once (after the first layout put the view where it belongs).
  const [view, setView] = useState<{ top: number; height: number; atEnd: boolean } | undefined>(undefined);
  const atEnd = useRef(true);
  // The first item in view and its distance from the view's top, read from the DOM after each layout
  // and each scroll: the next layout puts it back there.
  const anchor = useRef<{ key: string; top: number } | undefined>(undefined);
  const jumpedTo = useRef<{ key: string; top: number } | undefined>(undefined);

  const offsets = useMemo(() => itemOffsets(keys, (key) => heights.get(key), estimate), [keys, estimate, heights, measured]); // eslint-disable-line react-hooks/exhaustive-deps -- heights is mutated in place; measured says when

  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const element = entry.target as HTMLElement;
              const key = element.getAttribute(KEY_ATTRIBUTE);
              const height = element.offsetHeight;
              if (key && height > 0 && heights.get(key) !== height) {
                heights.set(key, height);
                changed = true;
              }
            }
            if (changed) remeasured();
          }),
    [heights],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);

  const measure = useCallback(
    (element: HTMLElement | null) => {
      if (element) observer?.observe(element);
    },
    [observer],
  );

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    let frame: number | undefined;
    const read = () => {
      frame = undefined;
      const next = { top: element.scrollTop, height: element.clientHeight, atEnd: atEnd.current };
      setView((current) => (current?.top === next.top && current.height === next.height && current.atEnd === next.atEnd ? current : next));
    };
    const onScroll = () => {
      atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < 8;
      anchor.current = anchorOf(element);
      frame ??= requestAnimationFrame(read);
    };
    read();
    element.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(() => (frame ??= requestAnimationFrame(read)));
    resize.observe(element);
    return () => {
      element.removeEventListener('scroll', onScroll);
      resize.disconnect();
      if (frame !== undefined) cancelAnimationFrame(frame);
    };
  }, [ref]);

  // After each layout: at the end (and asked to stick) stay there; otherwise put the anchor item back
  // where it was (items added above it or measured anew moved it). When the anchor is not rendered (a
  // page added above: the window still shows the old scroll position's items), jump to where the
  // offsets say it is and render that window before the browser paints.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- after every layout by design; setView runs only while the anchor is not rendered
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (stickToEnd && atEnd.current) {
      element.scrollTop = element.scrollHeight;
    } else if (anchor.current) {
      const item = element.querySelector(`[${KEY_ATTRIBUTE}="${CSS.escape(anchor.current.key)}"]`);
      if (item) {
        const moved = item.getBoundingClientRect().top - element.getBoundingClientRect().top - anchor.current.top;
        if (Math.abs(moved) >= 1) element.scrollTop += moved;
      } else {
        const index = keys.indexOf(anchor.current.key);
        const base = listTop(element, keys, offsets);
        // Once per anchor: if the jump did not bring it into the window, the view is left where it is.
        if (index >= 0 && base !== undefined && jumpedTo.current !== anchor.current) {
          jumpedTo.current = anchor.current;
          element.scrollTop = base + offsets[index] - anchor.current.top;
          setView({ top: element.scrollTop, height: element.clientHeight, atEnd: false });
          return; // the anchor is rendered next time round
        }
      }
    }
    anchor.current = anchorOf(element);
  });

  const scrollToKey = useCallback(
    (key: string) => {
      const element = ref.current;
      const index = keys.indexOf(key);
      if (!element || index < 0) return;
      element.scrollTop = Math.max(0, (listTop(element, keys, offsets) ?? 0) + offsets[index] - element.clientHeight / 3);
      atEnd.current = false;
      anchor.current = undefined;
      setView({ top: element.scrollTop, height: element.clientHeight, atEnd: false });
    },
    [ref, keys, offsets],
  );

  // Before the container was read: the last screen of the list when it sticks to the end, else the first.
  const height = view?.height ?? 800;
  const top = view?.top ?? (stickToEnd ? Math.max(0, offsets[offsets.length - 1] - height) : 0);
  return {
    ...measuredWindow(offsets, top, height),
    measure,
    nearStart: view !== undefined && !view.atEnd && view.top < Math.max(400, view.height),
    scrollToKey,
  };
}
