import type { Logger } from '@nestjs/common';
import * as net from 'node:net';
import type { Readable, Writable } from 'node:stream';
import {
  ConnectionError,
  createMessageConnection,
  ErrorCodes,
  type MessageConnection,
  type MessageWriter,
  ResponseError,
  StreamMessageReader,
} from 'vscode-jsonrpc/node';
import { BatchedMessageWriter } from './batched-message-writer';
import { CLI_REQUEST_METHODS, type CliRequestMethod, type CliSessionEvent } from './cli-protocol';
import { CopilotCliConnectionLostError, CopilotCliUnavailableError } from './copilot-cli.errors';
import { FrameSizeGuard } from './frame-size-guard';

export type CliRequestHandler = (params: Record<string, unknown>) => Promise<unknown>;

export interface CliTransportOptions {
  /** A frame over this many bytes is refused at its header (SWITCHBOARD_CLI_MAX_MESSAGE_BYTES). */
  maxMessageBytes: number;
  logger: Pick<Logger, 'debug' | 'warn' | 'error'>;
  /** Every well-formed `session.event` notification, in arrival order. */
  onSessionEvent(event: CliSessionEvent): void;
  /** Who answers the CLI's requests (protocol 2, and `hooks.invoke` in 3); looked up per request. */
  requestHandler(method: CliRequestMethod): CliRequestHandler | undefined;
  /** The byte stream cannot be read any more (broken framing, an oversized frame): drop the CLI. */
  onUnreadable(reason: string): void;
}

/** vscode-jsonrpc's reader errors after which the byte stream cannot be resynchronised. */
const BROKEN_FRAMING = /^(Header must provide a Content-Length|Content-Length value must be a number|Message header must separate key and value)/;

/**
 * JSON-RPC with the CLI over one byte stream pair (its stdio, or a TCP socket): the CLI's bytes pass
 * a FrameSizeGuard before vscode-jsonrpc's reader, its notifications and requests go to the options'
 * callbacks, and a request lost with the connection is a CopilotCliConnectionLostError.
 */
export class CliTransport {
  private readonly connection: MessageConnection;
  private unreadable = false;
  private closed = false;

  private constructor(
    input: Readable,
    writer: MessageWriter,
    private readonly options: CliTransportOptions,
    private readonly socket?: net.Socket,
  ) {
    // vscode-jsonrpc's reader buffers any frame whole: the guard refuses an oversized one at its header.
    const guard = new FrameSizeGuard(options.maxMessageBytes, (reason) =>
      this.markUnreadable(reason, () => options.logger.error({ reason }, 'Copilot CLI sent a message over the size limit; dropping the connection')),
    );
    this.connection = createMessageConnection(new StreamMessageReader(input.pipe(guard)), writer);
    this.wire();
  }

  /** Over a spawned CLI's stdout and stdin. */
  static overStreams(stdout: Readable, stdin: Writable, options: CliTransportOptions): CliTransport {
    return new CliTransport(stdout, new BatchedMessageWriter(stdin), options);
  }

  /**
   * To a CLI already listening at `host:port`. `onClose` is told when the socket closes, which for a
   * CLI reached over TCP is what its exit is for a spawned one.
   */
  static connect(url: string, options: CliTransportOptions, onClose: (transport: CliTransport) => void): Promise<CliTransport> {
    const [host, port] = [url.slice(0, url.lastIndexOf(':')), Number(url.slice(url.lastIndexOf(':') + 1))];
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port }, () => {
        socket.setNoDelay(true); // a turn's frames go out in one write (BatchedMessageWriter): Nagle would only delay them
        const transport = new CliTransport(socket, new BatchedMessageWriter(socket), options, socket);
        socket.on('close', () => onClose(transport));
        resolve(transport);
      });
      socket.once('error', (error) => reject(new CopilotCliUnavailableError(`Cannot reach the Copilot CLI at ${url}: ${error.message}`)));
    });
  }

  listen(): void {
    this.connection.listen();
  }

  /** The request as sent, its answer or error as received: what the handshake needs. */
  send<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest<T>(method, params);
  }

  /**
   * A request with a deadline. A deadline passed is CopilotCliUnavailableError; an answer lost with the
   * connection is CopilotCliConnectionLostError (the CLI may or may not have acted on it).
   */
  async request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CopilotCliUnavailableError(`The Copilot CLI did not answer ${method} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.connection.sendRequest<T>(method, params), timeout]);
    } catch (error) {
      if (isConnectionLoss(error)) {
        throw new CopilotCliConnectionLostError(`The Copilot CLI connection dropped before it answered ${method}`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the connection: requests still waiting are rejected as lost; a socket is closed. */
  close(): void {
    this.closed = true;
    this.connection.dispose();
    this.socket?.destroy();
  }

  private wire(): void {
    const { logger } = this.options;
    this.connection.onNotification('session.event', (params: CliSessionEvent) => {
      const problem = malformedSessionEvent(params);
      if (problem) {
        logger.warn({ problem, params: JSON.stringify(params)?.slice(0, 500) }, 'dropped malformed session.event');
        return;
      }
      this.options.onSessionEvent(params);
    });
    this.connection.onUnhandledNotification((message) => logger.debug({ method: message.method }, 'cli notification'));
    for (const method of CLI_REQUEST_METHODS) {
      this.connection.onRequest(method, async (params: Record<string, unknown>) => {
        const handler = this.options.requestHandler(method);
        if (!handler) throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
        if (params === null || typeof params !== 'object' || Array.isArray(params)) {
          throw new ResponseError(ErrorCodes.InvalidParams, `${method} needs an object of params`);
        }
        return handler(params);
      });
    }
    this.connection.onError(([error, message]) => {
      // A body that is not JSON is skipped and the next frame read. Broken framing (a header without
      // Content-Length, a stray line) leaves the stream unreadable: drop the CLI, which interrupts its
      // sessions and restarts it, rather than wait forever for answers that cannot be read.
      if (message !== undefined || !BROKEN_FRAMING.test(String(error?.message))) {
        logger.warn({ err: error }, 'Copilot CLI sent a frame that could not be read; skipped');
        return;
      }
      this.markUnreadable(error.message, () => logger.error({ err: error }, 'Copilot CLI framing is broken; dropping the connection'));
    });
    this.connection.onClose(() => logger.debug('Copilot CLI connection closed'));
  }

  /** Told once, and not after close: a connection already given up needs no second drop. */
  private markUnreadable(reason: string, log: () => void): void {
    if (this.unreadable || this.closed) return;
    this.unreadable = true;
    log();
    this.options.onUnreadable(reason);
  }
}

/** A request whose answer was lost with its connection, as vscode-jsonrpc reports it. */
function isConnectionLoss(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return (
    error instanceof ResponseError &&
    (error.code === ErrorCodes.PendingResponseRejected || error.code === ErrorCodes.MessageWriteError || error.code === ErrorCodes.ConnectionInactive)
  );
}

/** What is wrong with a session.event notification, or undefined when it has the shape routing relies on. */
export function malformedSessionEvent(params: unknown): string | undefined {
  const p = params as Partial<CliSessionEvent> | null;
  if (p === null || typeof p !== 'object') return 'params is not an object';
  if (typeof p.sessionId !== 'string' || p.sessionId.length === 0) return 'sessionId is not a non-empty string';
  const event = p.event as Partial<CliSessionEvent['event']> | undefined;
  if (event === null || typeof event !== 'object') return 'event is not an object';
  if (typeof event.type !== 'string' || event.type.length === 0) return 'event.type is not a non-empty string';
  if (event.data !== undefined && (event.data === null || typeof event.data !== 'object' || Array.isArray(event.data))) {
    return 'event.data is not an object';
  }
  return undefined;
}
