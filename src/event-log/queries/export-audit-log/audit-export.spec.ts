import { Writable } from 'node:stream';
import type { AuditEntry, AuditPage } from '../list-audit-log/list-audit-log.query';
import { csvCell, csvRow, writeAuditExport } from './audit-export';

const entry = (position: number, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  position,
  streamId: `thing-${position}`,
  eventType: 'thing.noted',
  actor: null,
  actorKind: 'key',
  actorId: 'api',
  actorName: 'api',
  correlationId: null,
  causationId: null,
  recordedAt: '2026-01-01T00:00:00.000Z',
  sessionId: null,
  runId: null,
  agentId: null,
  toolName: null,
  decision: null,
  ...extra,
});

/** Pages of `size` over `total` entries, recording which cursors were read. */
function pagedLog(total: number, size: number) {
  const reads: number[] = [];
  const readPage = async (after: number): Promise<AuditPage> => {
    reads.push(after);
    const entries = Array.from({ length: Math.max(0, Math.min(size, total - after)) }, (_, i) => entry(after + i + 1));
    return { entries, nextAfter: entries.length ? after + entries.length : after, hasMore: after + entries.length < total };
  };
  return { reads, readPage };
}

describe('audit export', () => {
  it.each([
    [null, ''],
    [42, '42'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
  ])('quotes CSV cells holding quotes, commas or line breaks, doubles quotes, and leaves null empty: %p is %p', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    ['=HYPERLINK("http://evil")', '"\'=HYPERLINK(""http://evil"")"'],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['a=b', 'a=b'],
  ])('defuses texts a spreadsheet would run as a formula: %p is %p', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('writes one CSV row per entry in the API order of fields, who did it included', () => {
    expect(csvRow(entry(7, { actor: 'alice, bob', toolName: 'shell', actorKind: 'user', actorId: 'idp#42', actorName: 'Ada, Lovelace' }))).toBe(
      '7,thing-7,thing.noted,"alice, bob",user,idp#42,"Ada, Lovelace",,,2026-01-01T00:00:00.000Z,,,,shell,\r\n',
    );
  });

  it('writes every page as JSON lines equal to the entries', async () => {
    const { readPage } = pagedLog(5, 2);
    const chunks: string[] = [];
    const sink = new Writable({ write: (chunk, _encoding, done) => (chunks.push(String(chunk)), done()) });
    await writeAuditExport(readPage, sink, 'jsonl');
    const lines = chunks.join('').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual([1, 2, 3, 4, 5].map((p) => entry(p)));
  });

  it('reads the next page only after a slow sink has taken the last one', async () => {
    const { reads, readPage } = pagedLog(10, 2);
    const pending: Array<() => void> = [];
    // A client that takes nothing until told to: the sink's buffer fills at once (highWaterMark 1 byte).
    const sink = new Writable({ highWaterMark: 1, write: (_chunk, _encoding, done) => pending.push(done) });
    const writing = writeAuditExport(readPage, sink, 'csv');
    await new Promise((resolve) => setImmediate(resolve));
    // The header is waiting in the sink: no page was read while it cannot take more.
    expect(reads).toEqual([]);
    for (let taken = 0; taken < 20 && pending.length; taken++) {
      pending.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
      expect(reads.length).toBeLessThanOrEqual(taken + 1);
    }
    await writing;
    expect(reads).toEqual([0, 2, 4, 6, 8]);
  });

  it('stops reading when the client goes away', async () => {
    const { reads, readPage } = pagedLog(100, 2);
    const sink = new Writable({ highWaterMark: 1, write: () => undefined });
    const writing = writeAuditExport(readPage, sink, 'jsonl');
    await new Promise((resolve) => setImmediate(resolve));
    sink.destroy();
    await writing;
    expect(reads).toEqual([0]);
  });
});
