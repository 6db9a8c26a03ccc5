import { EventStore } from '../../src/event-store/event-store';
import { AsyncProjectionRunner } from '../../src/projections/async-projection-runner';
import { type RunningApp, startTestApp } from '../fixtures/app-fixture';
import { waitUntil } from '../fixtures/wait-until';

const TOKEN = 'e2e-token-0123456789';
const BULK = 20_000;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** RFC 4180 rows of a CSV text (quoted cells may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') {
      quoted = false;
    } else if (quoted) {
      cell += c;
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('audit export over HTTP', () => {
  let running: RunningApp;
  let store: EventStore;
  const get = (path: string, token: string | null = TOKEN) =>
    fetch(`${running.baseUrl}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  /** Every entry GET /api/audit gives for `filter`, page after page. */
  async function apiPages(filter: string, limit = 100): Promise<Json[]> {
    const entries: Json[] = [];
    for (let after = 0; ;) {
      const page: Json = await (await get(`/api/audit?${filter}&after=${after}&limit=${limit}`)).json();
      entries.push(...page.entries);
      if (!page.hasMore) return entries;
      after = page.nextAfter;
    }
  }

  beforeAll(async () => {
    running = await startTestApp({ apiToken: TOKEN });
    store = running.app.get(EventStore);
    await store.append('session-exported', 'no_stream', [
      {
        type: 'tool_call.routed',
        data: { parentSessionId: 'exported', agentName: 'reviewer', toolName: 'save_result', outcome: 'success' },
        metadata: { actor: 'Doe, "Jane"\nops' },
      },
      { type: 'permission.decided', data: { parentSessionId: 'exported', agentName: 'reviewer', toolName: 'shell', outcome: 'denied' } },
      { type: 'permission.decided', data: { parentSessionId: 'exported', agentName: 'planner', toolName: 'shell', outcome: 'approved' } },
      { type: 'tool_call.routed', data: { parentSessionId: 'exported', agentName: '=cmd|calc', toolName: 'save_result', outcome: 'success' } },
    ]);
    for (let start = 0; start < BULK; start += 1000) {
      await store.append(
        `bulk-${start}`,
        'no_stream',
        Array.from({ length: 1000 }, (_, i) => ({ type: 'bulk.noted', data: { n: start + i } })),
      );
    }
    await waitUntil(
      async () => running.app.get(AsyncProjectionRunner).position('audit-log') >= (await store.headPosition()),
      'the audit log to catch up',
      60_000,
    );
  }, 120_000);
  afterAll(() => running.close());

  it('is behind the API token like the rest of /api', async () => {
    for (const token of [null, 'wrong-token-wrong-token']) expect((await get('/api/audit/export?format=jsonl', token)).status).toBe(401);
  });

  it('answers 400 naming the field for a missing or unknown format or a bad filter', async () => {
    for (const query of ['', 'format=xml', 'format=csv&from=yesterday']) {
      const response = await get(`/api/audit/export?${query}`);
      expect(response.status).toBe(400);
      const body: Json = await response.json();
      expect(body.code).toBe('invalid_input');
      expect(body.message).toMatch(/^(format|from):/);
    }
  });

  it('exports as JSONL exactly the entries the API pages give for the same filter, as a download', async () => {
    for (const filter of ['sessionId=exported', 'agentId=reviewer', 'toolName=shell', 'decision=denied', 'sessionId=exported&decision=success']) {
      const response = await get(`/api/audit/export?format=jsonl&${filter}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="switchboard-audit-[0-9TZ-]+\.jsonl"$/);
      const lines = (await response.text()).split('\n');
      expect(lines.pop()).toBe('');
      const expected = await apiPages(filter, 1);
      expect(expected.length).toBeGreaterThan(0);
      expect(lines.map((line) => JSON.parse(line))).toEqual(expected);
    }
    const denied = await (await get('/api/audit/export?format=jsonl&decision=denied')).text();
    expect(
      denied
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).toolName),
    ).toEqual(['shell']);
  });

  it('exports as CSV with a header, quoted commas, quotes and line breaks, and defused formulas', async () => {
    const response = await get('/api/audit/export?format=csv&sessionId=exported');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/\.csv"$/);
    const text = await response.text();
    expect(text).toContain('"Doe, ""Jane""\nops"');
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
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
    ]);
    const expected = await apiPages('sessionId=exported');
    expect(rows).toEqual(
      expected.map((entry) =>
        header.map((column) => {
          const value = entry[column];
          if (value === null) return '';
          return typeof value === 'string' && /^[=+\-@]/.test(value) ? `'${value}` : String(value);
        }),
      ),
    );
    expect(rows.map((r) => r[header.indexOf('agentId')])).toEqual(['reviewer', 'reviewer', 'planner', "'=cmd|calc"]);
  });

  it('streams a large export chunk by chunk, every row once in order', async () => {
    const response = await get('/api/audit/export?format=jsonl&eventType=bulk.noted');
    expect(response.status).toBe(200);
    // Streamed: no length known up front, the body arrives in pieces.
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const decoder = new TextDecoder();
    let chunks = 0;
    let text = '';
    for await (const chunk of response.body!) {
      chunks += 1;
      text += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).toBeGreaterThan(1);
    const rows = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(BULK);
    const positions = rows.map((r) => r.position);
    expect(positions.every((p, i) => i === 0 || p > positions[i - 1])).toBe(true);
    const firstPage: Json = await (await get('/api/audit?eventType=bulk.noted&limit=1000')).json();
    expect(rows.slice(0, 1000)).toEqual(firstPage.entries);
    const csv = await (await get('/api/audit/export?format=csv&eventType=bulk.noted')).text();
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(BULK + 1);
  });
});
