import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-jsonrpc/node';

/** The messages of one turn of the event loop, and the one promise their write settles. */
interface Batch {
  frames: string[];
  done: Promise<void>;
  settle(error?: Error | null): void;
}

/**
 * JSON-RPC to the CLI: each message framed as one string (header and body together), and the frames
 * one turn of the event loop makes handed to the stream as ONE write at the end of that turn.
 * vscode-jsonrpc's stream writer writes the header and the body separately, one message at a time,
 * each waiting for the last one's write callback: on a socket with Nagle off that is two syscalls and
 * two segments per answer, and under load the answers queue behind each other (bench:dispatch, a
 * fifth of Switchboard's CPU at concurrency 64). Order is kept: frames go out in the order they were
 * written. A failed write rejects every message of its batch and is reported through `onError`, as
 * vscode-jsonrpc's writer reports it.
 */
export class BatchedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private batch?: Batch;
  private errorCount = 0;

  constructor(private readonly stream: Writable) {
    super();
    stream.on('error', (error: Error) => this.fireError(error));
    stream.on('close', () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    let body: string;
    try {
      body = JSON.stringify(message);
    } catch (error) {
      this.fireError(error, message, ++this.errorCount);
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const batch = (this.batch ??= this.newBatch());
    batch.frames.push(`Content-Length: ${Buffer.byteLength(body, 'utf8')}\r\n\r\n${body}`);
    return batch.done;
  }

  end(): void {
    this.flush();
    this.stream.end();
  }

  private newBatch(): Batch {
    let settle!: (error?: Error | null) => void;
    const done = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    // At the loop's check phase: the answers of every callback of this poll phase (a socket read of the
    // CLI's requests, each webhook's response) share the write.
    setImmediate(() => this.flush());
    return { frames: [], done, settle };
  }

  private flush(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    this.stream.write(batch.frames.join(''), 'utf8', (error) => {
      if (error) this.fireError(error, undefined, ++this.errorCount);
      batch.settle(error);
    });
  }
}
