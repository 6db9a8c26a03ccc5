import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import * as net from 'node:net';
import type { Readable } from 'node:stream';
import { Observable, Subject } from 'rxjs';
import {
  ConnectionError,
  createMessageConnection,
  ErrorCodes,
  MessageConnection,
  ResponseError,
  SocketMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import { DomainError } from '../common/domain-error';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { CopilotCliConfig, SwitchboardConfig } from '../config/switchboard-config';
import { defaultCliCommand } from './cli-binary';
import { cliEnvironment } from './cli-environment';
import { CLI_REQUEST_METHODS, type CliRequestMethod, type CliSessionEvent, type ProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './cli-protocol';
import { FrameSizeGuard } from './frame-size-guard';

/** The CLI cannot be started or reached, or did not answer. HTTP 503. */
export class CopilotCliUnavailableError extends DomainError {
  readonly code = 'cli_unavailable';
}

/**
 * The connection went away while a request waited for its answer (the CLI died, the socket dropped):
 * whether the CLI acted on it is unknown, and the sessions on it are being interrupted. HTTP 503.
 */
export class CopilotCliConnectionLostError extends CopilotCliUnavailableError {}

/** A request whose answer was lost with its connection, as vscode-jsonrpc reports it. */
function isConnectionLoss(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return (
    error instanceof ResponseError &&
    (error.code === ErrorCodes.PendingResponseRejected || error.code === ErrorCodes.MessageWriteError || error.code === ErrorCodes.ConnectionInactive)
  );
}

export type CliRequestHandler = (params: Record<string, unknown>) => Promise<unknown>;

/** Emitted when the CLI went away without being asked to; running sessions are then interrupted. */
export interface CliExit {
  code: number | null;
  signal: string | null;
  generation: number;
}

const HANDSHAKE_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 3_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Unexpected exits counted for `exitsLastMinute` (readiness calls several a crash loop). */
const EXIT_WINDOW_MS = 60_000;
/** vscode-jsonrpc's reader errors after which the byte stream cannot be resynchronised. */
const BROKEN_FRAMING = /^(Header must provide a Content-Length|Content-Length value must be a number|Message header must separate key and value)/;

/**
 * The one connection to the Copilot CLI: spawned over stdio (or reached over TCP), handshaken with
 * `connect` (protocol 3) falling back to `ping` (protocol 2), restarted when it dies. Started lazily
 * by the first call that needs it, so a service with no sessions never spawns it.
 */
@Injectable()
export class CopilotCliConnection implements OnApplicationShutdown {
  private readonly logger = new Logger(CopilotCliConnection.name);
  private readonly config: CopilotCliConfig;
  private readonly envPassthrough: readonly string[];
  private readonly maxMessageBytes: number;
  private readonly events = new Subject<CliSessionEvent>();
  private readonly exits = new Subject<CliExit>();
  private readonly requestHandlers = new Map<CliRequestMethod, CliRequestHandler>();
  private starting?: Promise<void>;
  private connection?: MessageConnection;
  private process?: ChildProcess;
  private socket?: net.Socket;
  private guard?: FrameSizeGuard;
  private stopping = false;
  private restartAttempts = 0;
  private restartTimer?: NodeJS.Timeout;
  /** Why the last start failed; cleared by a successful one. */
  private lastStartFailure?: string;
  private unexpectedExitTimes: number[] = [];
  /** Bumped on every (re)start: callers compare it to tell a restarted CLI from the one they used. */
  generation = 0;
  protocolVersion?: ProtocolVersion;
  cliVersion?: string;

  /** Every session.event notification, for every session, in arrival order. */
  readonly events$: Observable<CliSessionEvent> = this.events.asObservable();
  readonly exits$: Observable<CliExit> = this.exits.asObservable();

  constructor(@Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig) {
    this.config = config.cli;
    this.envPassthrough = config.security.cliEnvPassthrough;
    this.maxMessageBytes = config.resilience.cliMaxMessageBytes;
  }

  /** Protocol-2 requests from the CLI (tool.call, permission.request, ...) go to these handlers. */
  handleRequests(method: CliRequestMethod, handler: CliRequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  get isRunning(): boolean {
    return this.connection !== undefined && !this.starting;
  }

  /** What /health shows of the CLI. */
  status(): {
    running: boolean;
    transport: 'stdio' | 'tcp';
    pid?: number;
    protocolVersion?: number;
    version?: string;
    generation: number;
    lastStartFailure?: string;
    exitsLastMinute: number;
  } {
    return {
      running: this.isRunning,
      transport: this.config.url ? 'tcp' : 'stdio',
      ...(this.process?.pid ? { pid: this.process.pid } : {}),
      ...(this.protocolVersion ? { protocolVersion: this.protocolVersion } : {}),
      ...(this.cliVersion ? { version: this.cliVersion } : {}),
      generation: this.generation,
      ...(this.lastStartFailure ? { lastStartFailure: this.lastStartFailure } : {}),
      exitsLastMinute: this.recentExits().length,
    };
  }

  ensureStarted(): Promise<void> {
    if (this.stopping) return Promise.reject(new CopilotCliUnavailableError('Switchboard is shutting down'));
    if (this.connection && !this.starting) return Promise.resolve();
    this.starting ??= this.start()
      .catch((error: unknown) => {
        this.lastStartFailure = (error as Error).message;
        throw error;
      })
      .finally(() => (this.starting = undefined));
    return this.starting;
  }

  async request<T>(method: string, params: unknown, timeoutMs = this.config.requestTimeoutMs): Promise<T> {
    await this.ensureStarted();
    const connection = this.connection;
    if (!connection) throw new CopilotCliUnavailableError('The Copilot CLI is not running');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CopilotCliUnavailableError(`The Copilot CLI did not answer ${method} within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([connection.sendRequest<T>(method, params), timeout]);
    } catch (error) {
      if (isConnectionLoss(error)) {
        throw new CopilotCliConnectionLostError(`The Copilot CLI connection dropped before it answered ${method}`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Stops the CLI: closes the connection, SIGTERM, SIGKILL after a grace period; resolves once it exited. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    await this.starting?.catch(() => undefined);
    await this.teardown();
  }

  private async start(): Promise<void> {
    await this.teardown();
    const connection = this.config.url ? await this.connectTcp(this.config.url) : this.spawnCli();
    this.connection = connection;
    this.wire(connection);
    connection.listen();
    try {
      await this.handshake(connection);
    } catch (error) {
      await this.teardown();
      throw error;
    }
    this.generation += 1;
    this.restartAttempts = 0;
    this.lastStartFailure = undefined;
    this.logger.log({ protocolVersion: this.protocolVersion, cliVersion: this.cliVersion, generation: this.generation }, 'Copilot CLI connected');
  }

  private spawnCli(): MessageConnection {
    const { command, args } = this.config.path ? { command: this.config.path, args: [] as string[] } : defaultCliCommand();
    const fullArgs = [
      ...args,
      '--headless',
      '--no-auto-update',
      '--stdio',
      ...(this.config.githubToken ? [] : ['--no-auto-login']),
      ...this.config.extraArgs,
    ];
    // Its own process group, so stopping it also stops whatever it started (the npm loader, for one,
    // runs the real binary as its child).
    const env = cliEnvironment(process.env, { passthrough: this.envPassthrough, home: this.config.home, githubToken: this.config.githubToken });
    // The CLI reads COPILOT_PROVIDER_BASE_URL from its environment too and, without COPILOT_MODEL,
    // exits at start ("BYOK providers require an explicit model"): give it the service's default.
    if (env.COPILOT_PROVIDER_BASE_URL && !env.COPILOT_MODEL) env.COPILOT_MODEL = this.config.defaultModel;
    const child = spawn(command, fullArgs, { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.process = child;
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) this.logger.debug({ cli: line.slice(0, 2000) }, 'cli stderr');
    });
    child.on('error', (error) => this.logger.error({ err: error, command }, 'Copilot CLI process error'));
    child.on('exit', (code, signal) => this.onProcessExit(child, code, signal));
    this.logger.log({ command, args: fullArgs, pid: child.pid }, 'Copilot CLI spawned');
    return createMessageConnection(new StreamMessageReader(this.sizeGuarded(child.stdout)), new StreamMessageWriter(child.stdin));
  }

  private connectTcp(url: string): Promise<MessageConnection> {
    const [host, port] = [url.slice(0, url.lastIndexOf(':')), Number(url.slice(url.lastIndexOf(':') + 1))];
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host, port }, () => {
        socket.setNoDelay(true); // vscode-jsonrpc writes header and body separately; Nagle would hold each ~40 ms
        this.socket = socket;
        socket.on('close', () => this.onProcessExit(socket, null, 'socket closed'));
        resolve(createMessageConnection(new StreamMessageReader(this.sizeGuarded(socket)), new SocketMessageWriter(socket)));
      });
      socket.once('error', (error) => reject(new CopilotCliUnavailableError(`Cannot reach the Copilot CLI at ${url}: ${error.message}`)));
    });
  }

  private wire(connection: MessageConnection): void {
    connection.onNotification('session.event', (params: CliSessionEvent) => {
      const problem = malformedSessionEvent(params);
      if (problem) {
        this.logger.warn({ problem, params: JSON.stringify(params)?.slice(0, 500) }, 'dropped malformed session.event');
        return;
      }
      this.events.next(params);
    });
    connection.onUnhandledNotification((message) => this.logger.debug({ method: message.method }, 'cli notification'));
    for (const method of CLI_REQUEST_METHODS) {
      connection.onRequest(method, async (params: Record<string, unknown>) => {
        const handler = this.requestHandlers.get(method);
        if (!handler) throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
        if (params === null || typeof params !== 'object' || Array.isArray(params)) {
          throw new ResponseError(ErrorCodes.InvalidParams, `${method} needs an object of params`);
        }
        return handler(params);
      });
    }
    connection.onError(([error, message]) => {
      // A body that is not JSON is skipped and the next frame read. Broken framing (a header without
      // Content-Length, a stray line) leaves the stream unreadable: drop the CLI, which interrupts its
      // sessions and restarts it, rather than wait forever for answers that cannot be read.
      if (message !== undefined || !BROKEN_FRAMING.test(String(error?.message))) {
        this.logger.warn({ err: error }, 'Copilot CLI sent a frame that could not be read; skipped');
        return;
      }
      if (connection !== this.connection) return;
      this.logger.error({ err: error }, 'Copilot CLI framing is broken; dropping the connection');
      this.dropBrokenConnection();
    });
    connection.onClose(() => this.logger.debug('Copilot CLI connection closed'));
  }

  /**
   * The CLI's bytes pass a size check before vscode-jsonrpc's reader, which would buffer any frame
   * whole: one over SWITCHBOARD_CLI_MAX_MESSAGE_BYTES is broken framing, and the CLI is restarted.
   */
  private sizeGuarded(source: Readable): Readable {
    const guard = new FrameSizeGuard(this.maxMessageBytes, (reason) => {
      if (guard !== this.guard) return; // an old generation's stream
      this.logger.error({ reason }, 'Copilot CLI sent a message over the size limit; dropping the connection');
      this.dropBrokenConnection();
    });
    this.guard = guard;
    return source.pipe(guard);
  }

  /** Unreadable input: the CLI goes as if it died (its sessions interrupted, a new one started). */
  private dropBrokenConnection(): void {
    if (this.socket) this.socket.destroy();
    else this.process?.kill('SIGKILL');
  }

  private async handshake(connection: MessageConnection): Promise<void> {
    const withTimeout = <T>(p: Promise<T>) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new CopilotCliUnavailableError('The Copilot CLI did not answer the handshake')), HANDSHAKE_TIMEOUT_MS).unref(),
        ),
      ]);
    let version: unknown;
    try {
      const answer = await withTimeout(
        connection.sendRequest<{ protocolVersion?: number; version?: string }>('connect', {
          supportedTaskKinds: ['agent', 'client', 'shell'],
        }),
      );
      version = answer?.protocolVersion;
      this.cliVersion = answer?.version;
    } catch (error) {
      if (!(error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound)) throw error;
      // Protocol-2 CLIs do not know `connect`; they report their version from `ping`.
      const pong = await withTimeout(connection.sendRequest<{ protocolVersion?: number }>('ping', { message: 'switchboard' }));
      version = pong?.protocolVersion;
    }
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version as ProtocolVersion)) {
      throw new CopilotCliUnavailableError(
        `The Copilot CLI speaks protocol ${String(version)}; Switchboard supports protocols ${SUPPORTED_PROTOCOL_VERSIONS.join(' and ')}. Install a matching @github/copilot or set COPILOT_CLI_PATH.`,
      );
    }
    this.protocolVersion = version as ProtocolVersion;
  }

  private onProcessExit(source: ChildProcess | net.Socket, code: number | null, signal: string | null): void {
    if (source !== this.process && source !== this.socket) return; // an old generation
    const generation = this.generation;
    void this.teardown();
    if (this.stopping) return;
    this.logger.error({ code, signal, generation }, 'Copilot CLI exited unexpectedly; restarting');
    this.unexpectedExitTimes = [...this.recentExits(), Date.now()];
    this.exits.next({ code, signal, generation });
    const delay = Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** this.restartAttempts);
    this.restartAttempts += 1;
    this.restartTimer = setTimeout(() => {
      this.ensureStarted().catch((error: unknown) => this.logger.error({ err: error }, 'Copilot CLI restart failed; the next request retries'));
    }, delay);
    this.restartTimer.unref();
  }

  private recentExits(): number[] {
    const since = Date.now() - EXIT_WINDOW_MS;
    return this.unexpectedExitTimes.filter((t) => t > since);
  }

  /** Drops the connection and ends the process; the promise settles when the process is gone. */
  private teardown(): Promise<void> {
    const connection = this.connection;
    const child = this.process;
    const socket = this.socket;
    this.connection = undefined;
    this.process = undefined;
    this.socket = undefined;
    connection?.dispose();
    socket?.destroy();
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
      killer.unref();
      child.once('exit', () => {
        clearTimeout(killer);
        resolve();
      });
      signalGroup(child, 'SIGTERM');
    });
  }
}

/** Signals the CLI's whole process group; falls back to the process alone where groups are unavailable. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) {
      process.kill(-child.pid, signal);
      return;
    }
  } catch {
    // no such group (already gone) or not supported: signal the process itself
  }
  child.kill(signal);
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
