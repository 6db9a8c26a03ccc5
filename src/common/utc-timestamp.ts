import { z } from 'zod';

/**
 * An ISO 8601 date-time query parameter, with or without an offset, turned into the form timestamps
 * are stored in (UTC `toISOString()`), so SQL compares like with like: `+02:00` inputs used to
 * compare as strings and miss rows.
 */
export const utcTimestampParam = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());
