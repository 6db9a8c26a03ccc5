import { z } from 'zod';

/** The page sizes a list allows: the smallest and largest `limit`, and the one it takes when none is asked. */
export interface PageSize {
  readonly min: number;
  readonly max: number;
  readonly fallback: number;
}

/** The query of a REST list paged by cursor: `limit` within the list's page sizes, and `after`, the previous page's `nextCursor`. */
export const cursorPageQuery = (size: PageSize, cursorMaxLength: number) =>
  z
    .object({
      limit: z.coerce.number().int().min(size.min).max(size.max).default(size.fallback),
      /** `nextCursor` of the previous page. */
      after: z.string().min(1).max(cursorMaxLength).optional(),
    })
    .strict();
