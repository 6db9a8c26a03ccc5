import { useState } from 'react';

/** Where a cursor-paged list stands: Previous pops the cursor stack, Next pushes the page's end cursor. */
export interface CursorPages {
  /** The cursor of the page shown (null: the first page). */
  after: string | null;
  /** 1 for the first page. */
  pageNumber: number;
  previous: () => void;
  next: (endCursor: string) => void;
  /** Back to the first page (a new filter or order). */
  restart: () => void;
}

/** The cursors of the pages before this one and this one's, for lists paged with `first`/`after`. */
export function useCursorPages(): CursorPages {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  return {
    after: cursors[cursors.length - 1],
    pageNumber: cursors.length,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: (endCursor) => setCursors((c) => [...c, endCursor]),
    restart: () => setCursors([null]),
  };
}

interface PagerProps {
  /** The navigation landmark's name ("Run pages"). */
  label: string;
  pages: CursorPages;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null } | undefined;
  /** A page is on its way: neither button moves until it is in. */
  fetching: boolean;
}

/** Previous and Next under a cursor-paged list. */
export function Pager({ label, pages, pageInfo, fetching }: PagerProps) {
  const endCursor = pageInfo?.endCursor;
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" onClick={pages.previous} disabled={pages.pageNumber === 1 || fetching}>
        Previous
      </button>
      <button type="button" onClick={() => endCursor && pages.next(endCursor)} disabled={!pageInfo?.hasNextPage || fetching}>
        Next
      </button>
    </nav>
  );
}
