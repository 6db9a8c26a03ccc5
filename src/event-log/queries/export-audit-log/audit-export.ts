import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { AuditEntry, AuditPage } from '../list-audit-log/list-audit-log.query';

export type AuditExportFormat = 'jsonl' | 'csv';

/** Rows per page read from the audit log: the export never holds more than one page. */
export const EXPORT_PAGE_SIZE = 1000;

/** The CSV columns, in the order of the API's entries. */
export const AUDIT_CSV_COLUMNS = [
  'position',
  'streamId',
  'eventType',
  'actor',
  'actorKind',
  'actorId',
  'actorName',
  'correlationId',
  'causationId',
  'recordedAt',
  'sessionId',
  'runId',
  'agentId',
  'toolName',
  'decision',
] as const satisfies ReadonlyArray<keyof AuditEntry>;

export const AUDIT_EXPORT_CONTENT_TYPES: Record<AuditExportFormat, string> = {
  jsonl: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled. A text
 * starting with = + - @ or a tab/CR is prefixed with ' so a spreadsheet shows it instead of running
 * it as a formula (agent names, tool names and actors come from outside).
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
}

export function csvRow(entry: AuditEntry): string {
  return `${AUDIT_CSV_COLUMNS.map((column) => csvCell(entry[column])).join(',')}\r\n`;
}

/** One JSON object per line, the same object GET /api/audit returns in `entries`. */
export function jsonlRow(entry: AuditEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/**
 * Writes every entry the filter selects to `sink`, one page at a time: the next page is read only
 * once the sink has taken the last one (backpressure), so a slow client holds the export back
 * instead of the service buffering the whole log. Stops when the sink closes (the client went away).
 * Entries recorded while it runs are included if they match (positions only grow).
 */
export async function writeAuditExport(readPage: (after: number) => Promise<AuditPage>, sink: Writable, format: AuditExportFormat): Promise<void> {
  const row = format === 'csv' ? csvRow : jsonlRow;
  if (format === 'csv' && !sink.write(csvHeader())) await drained(sink);
  let after = 0;
  for (;;) {
    if (sink.destroyed) return;
    const page = await readPage(after);
    const text = page.entries.map(row).join('');
    if (text && !sink.write(text)) await drained(sink);
    if (!page.hasMore) return;
    after = page.nextAfter;
  }
}

/** Resolves on 'drain', or when the sink closes without draining (the loop then sees it destroyed). */
async function drained(sink: Writable): Promise<void> {
  if (sink.destroyed) return;
  const abort = new AbortController();
  try {
    await Promise.race([once(sink, 'drain', { signal: abort.signal }), once(sink, 'close', { signal: abort.signal })]);
  } finally {
    abort.abort();
  }
}
