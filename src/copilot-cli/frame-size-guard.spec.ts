import { FrameSizeGuard, MAX_HEADER_BYTES } from './frame-size-guard';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** Feeds the chunks through a guard; returns what passed and why it refused, if it did. */
async function feed(maxBytes: number, chunks: Array<string | Buffer>): Promise<{ passed: string; refused: string[] }> {
  const refused: string[] = [];
  const guard = new FrameSizeGuard(maxBytes, (reason) => refused.push(reason));
  const out: Buffer[] = [];
  guard.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise((resolve) => guard.on('end', resolve));
  for (const chunk of chunks) guard.write(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk);
  guard.end();
  await ended;
  return { passed: Buffer.concat(out).toString('latin1'), refused };
}

/** Every way of cutting `text` into two chunks, so boundaries fall inside headers, bodies and the blank line. */
const splits = (text: string) => Array.from({ length: text.length + 1 }, (_, i) => [text.slice(0, i), text.slice(i)]);

describe('FrameSizeGuard', () => {
  it('passes frames up to the limit unchanged, wherever the chunks are cut', async () => {
    const stream = frame('{"a":1}') + frame('') + frame('x'.repeat(100)) + 'Content-Type: application/json\r\n' + frame('{"b":2}');
    for (const chunks of splits(stream)) {
      expect(await feed(100, chunks)).toEqual({ passed: stream, refused: [] });
    }
  });

  it('refuses a frame announced over the limit at its header, passing what came before it and nothing after', async () => {
    const before = frame('{"ok":true}');
    const stream = before + 'Content-Length: 400000000\r\n\r\n' + 'y'.repeat(50) + frame('{"later":1}');
    for (const chunks of splits(stream)) {
      const { passed, refused } = await feed(1024, chunks);
      expect(refused).toEqual(['a message of 400000000 bytes (Content-Length) over SWITCHBOARD_CLI_MAX_MESSAGE_BYTES (1024)']);
      // The frame before passes whole; of the refused header only what an earlier chunk already carried.
      expect(passed.startsWith(before)).toBe(true);
      expect(passed).not.toContain('y');
      expect(passed).not.toContain('later');
    }
  });

  it('counts body bytes, so a body that looks like a header is not read as one', async () => {
    const body = 'Content-Length: 999999999\r\n\r\n';
    const stream = frame(body) + frame('{}');
    expect(await feed(100, [stream])).toEqual({ passed: stream, refused: [] });
  });

  it('refuses a header that never ends', async () => {
    const { refused, passed } = await feed(1024, [frame('{}'), 'X-Junk: ' + 'z'.repeat(MAX_HEADER_BYTES)]);
    expect(refused).toEqual([`a message header longer than ${MAX_HEADER_BYTES} bytes without its end`]);
    expect(passed).toBe(frame('{}'));
  });

  it('passes a header block it cannot read on unchecked: the reader reports it as broken framing', async () => {
    const stream = 'Content-Length: twelve\r\n\r\n' + 'Content-Length: 400000000\r\n\r\n';
    expect(await feed(1024, [stream])).toEqual({ passed: stream, refused: [] });
  });
});
