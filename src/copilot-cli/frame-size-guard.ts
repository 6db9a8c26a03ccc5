import { Transform, type TransformCallback } from 'node:stream';

/** A header block is a line or two; anything this long without its blank line is not a header. */
export const MAX_HEADER_BYTES = 64 * 1024;

const CR = 13;
const LF = 10;

/**
 * Sits between the CLI's byte stream and vscode-jsonrpc's reader, which buffers a whole frame
 * before parsing it, however large its Content-Length says it is (a 400 MB announced frame grew
 * RSS by 255 MB). This reads only the headers, skips bodies by counting, and refuses a frame over
 * `maxMessageBytes` (or a header that never ends) as soon as its header is seen: the bytes before it
 * pass, nothing after it does, and `onRefused` says why (the connection drops the CLI).
 *
 * It finds a header's end exactly as vscode-jsonrpc does (CR LF CR LF, same state machine), so both
 * agree on frame boundaries. A header block vscode-jsonrpc cannot parse either (no Content-Length,
 * not a number) is passed on unchecked: the reader reports it as broken framing and the connection
 * drops the CLI for that.
 */
export class FrameSizeGuard extends Transform {
  private mode: 'header' | 'body' | 'unchecked' | 'refused' = 'header';
  private header: Buffer[] = [];
  private headerLength = 0;
  /** Progress through CR LF CR LF (0..4), as vscode-jsonrpc's tryReadHeaders counts it. */
  private terminator = 0;
  private bodyRemaining = 0;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly onRefused: (reason: string) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.mode === 'refused') return callback();
    if (this.mode === 'unchecked') return callback(null, chunk);
    let offset = 0;
    /** Where the frame being read began in this chunk (0 when it began in an earlier one). */
    let frameStart = 0;
    while (offset < chunk.length && (this.mode === 'header' || this.mode === 'body')) {
      if (this.mode === 'body') {
        const take = Math.min(this.bodyRemaining, chunk.length - offset);
        offset += take;
        this.bodyRemaining -= take;
        if (this.bodyRemaining === 0) {
          this.mode = 'header';
          frameStart = offset;
        }
        continue;
      }
      const start = offset;
      while (offset < chunk.length && this.terminator !== 4) this.terminator = nextTerminatorState(this.terminator, chunk[offset++]);
      this.header.push(chunk.subarray(start, offset));
      this.headerLength += offset - start;
      if (this.terminator !== 4) {
        if (this.headerLength > MAX_HEADER_BYTES) {
          return this.refuse(chunk, frameStart, `a message header longer than ${MAX_HEADER_BYTES} bytes without its end`, callback);
        }
        break;
      }
      const length = contentLength(Buffer.concat(this.header).toString('ascii'));
      this.header = [];
      this.headerLength = 0;
      this.terminator = 0;
      if (length === undefined) {
        this.mode = 'unchecked';
        break;
      }
      if (length > this.maxMessageBytes) {
        return this.refuse(
          chunk,
          frameStart,
          `a message of ${length} bytes (Content-Length) over SWITCHBOARD_CLI_MAX_MESSAGE_BYTES (${this.maxMessageBytes})`,
          callback,
        );
      }
      this.bodyRemaining = length;
      this.mode = length > 0 ? 'body' : 'header';
      if (length === 0) frameStart = offset;
    }
    callback(null, chunk);
  }

  private refuse(chunk: Buffer, frameStart: number, reason: string, callback: TransformCallback): void {
    this.mode = 'refused';
    this.header = [];
    if (frameStart > 0) this.push(chunk.subarray(0, frameStart));
    callback();
    this.onRefused(reason);
  }
}

function nextTerminatorState(state: number, byte: number): number {
  if (byte === CR) return state === 0 ? 1 : state === 2 ? 3 : 0;
  if (byte === LF) return state === 1 ? 2 : state === 3 ? 4 : 0;
  return 0;
}

/** The Content-Length of a header block as vscode-jsonrpc reads it (parseInt), undefined when it cannot. */
function contentLength(block: string): number | undefined {
  let value: string | undefined;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    // The last one wins, as in vscode-jsonrpc's header map.
    if (colon >= 0 && line.slice(0, colon).trim().toLowerCase() === 'content-length') value = line.slice(colon + 1).trim();
  }
  if (value === undefined) return undefined;
  const length = Number.parseInt(value, 10);
  return Number.isNaN(length) || length < 0 ? undefined : length;
}
