import { asSystem } from '../common';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { storage } from 'nestjs-pino/storage';
import { Observable, Subject } from 'rxjs';
import { SWITCHBOARD_CONFIG, type CopilotCliConfig, type SwitchboardConfig } from '../config';
import { negotiateProtocol } from './cli-handshake';
import { cliCommand, CliProcess, CliRestartPolicy } from './cli-process';
import type { CliRequestMethod, CliSessionEvent, ModelRouteState, ProtocolVersion } from './cli-protocol';
import { type CliRequestHandler, CliTransport, type CliTransportOptions } from './cli-transport';
import { CopilotCliUnavailableError } from './copilot-cli.errors';

// What callers have always imported from here.
export { CopilotCliConnectionLostError, CopilotCliUnavailableError } from './copilot-cli.errors';
export { type CliRequestHandler, malformedSessionEvent } from './cli-transport';

/** Emitted when the CLI went away without being asked to; running sessions are then interrupted. */
export interface CliExit {
  code: number | null;
  signal: string | null;
  generation: number;
}

/**
 * The one connection to the Copilot CLI: spawned over stdio (`CliProcess`) or reached over TCP,
 * spoken to through `CliTransport`, handshaken by `negotiateProtocol` (protocol 3 or 2), restarted
 * when it dies (`CliRestartPolicy`). Started lazily by the first call that needs it, so a service
 * with no sessions never spawns it.
 */
@Injectable()
export class CopilotCliConnection implements OnApplicationShutdown {
  private readonly logger = new Logger(CopilotCliConnection.name);
  private readonly config: CopilotCliConfig;
  private readonly envPassthrough: readonly string[];
  private readonly maxMessageBytes: number;
  private readonly routeModelCalls: boolean;
  private readonly events = new Subject<CliSessionEvent>();
  private readonly exits = new Subject<CliExit>();
  private readonly requestHandlers = new Map<CliRequestMethod, CliRequestHandler>();
  private readonly restarts = new CliRestartPolicy();
  private starting?: Promise<void>;
  private transport?: CliTransport;
  private process?: CliProcess;
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;
  /** Why the last start failed; cleared by a successful one. */
  private lastStartFailure?: string;
  /** Bumped on every (re)start: callers compare it to tell a restarted CLI from the one they used. */
  generation = 0;
  protocolVersion?: ProtocolVersion;
  cliVersion?: string;
  /** Whether this CLI hands its model calls to Switchboard; set at each (re)start, before any session exists. */
  private route: ModelRouteState = { routed: false, reason: 'the Copilot CLI has not started yet' };

  /** Every session.event notification, for every session, in arrival order. */
  readonly events$: Observable<CliSessionEvent> = this.events.asObservable();
  readonly exits$: Observable<CliExit> = this.exits.asObservable();

  constructor(@Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig) {
    this.config = config.cli;
    this.envPassthrough = config.security.cliEnvPassthrough;
    this.maxMessageBytes = config.resilience.cliMaxMessageBytes;
    this.routeModelCalls = config.modelCalls.route;
  }

  /** Protocol-2 requests from the CLI (tool.call, permission.request, ...) go to these handlers. */
  handleRequests(method: CliRequestMethod, handler: CliRequestHandler): void {
    this.requestHandlers.set(method, handler);
  }

  /** Whether the running CLI hands its model calls to Switchboard (`llmInference`), and why not. */
  modelRoute(): ModelRouteState {
    return this.route;
  }

  get isRunning(): boolean {
    return this.transport !== undefined && !this.starting;
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
    modelRoute: ModelRouteState;
  } {
    return {
      running: this.isRunning,
      transport: this.config.url ? 'tcp' : 'stdio',
      ...(this.process?.pid ? { pid: this.process.pid } : {}),
      ...(this.protocolVersion ? { protocolVersion: this.protocolVersion } : {}),
      ...(this.cliVersion ? { version: this.cliVersion } : {}),
      generation: this.generation,
      ...(this.lastStartFailure ? { lastStartFailure: this.lastStartFailure } : {}),
      exitsLastMinute: this.restarts.exitsLastMinute(),
      modelRoute: this.route,
    };
  }

  ensureStarted(): Promise<void> {
    if (this.stopping) return Promise.reject(new CopilotCliUnavailableError('Switchboard is shutting down'));
    if (this.transport && !this.starting) return Promise.resolve();
    // Started outside the caller's log context: the CLI outlives the HTTP request that happened to need it
    // first, and its exit, restarts and events must not be logged as that request's.
    this.starting ??= storage
      .exit(() => this.start())
      .catch((error: unknown) => {
        this.lastStartFailure = (error as Error).message;
        throw error;
      })
      .finally(() => (this.starting = undefined));
    return this.starting;
  }

  async request<T>(method: string, params: unknown, timeoutMs = this.config.requestTimeoutMs): Promise<T> {
    await this.ensureStarted();
    const transport = this.transport;
    if (!transport) throw new CopilotCliUnavailableError('The Copilot CLI is not running');
    return transport.request<T>(method, params, timeoutMs);
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
    const transport = this.config.url ? await this.connectTcp(this.config.url) : this.spawnCli();
    this.transport = transport;
    transport.listen();
    try {
      const { protocolVersion, cliVersion } = await negotiateProtocol((method, params) => transport.send(method, params));
      this.protocolVersion = protocolVersion;
      this.cliVersion = cliVersion;
      this.route = await this.takeModelCalls(transport, protocolVersion);
    } catch (error) {
      const stderr = this.process?.stderrTail();
      if (stderr) this.logger.warn({ err: error, stderr }, 'Copilot CLI handshake failed');
      await this.teardown();
      throw error;
    }
    this.generation += 1;
    this.restarts.started();
    this.lastStartFailure = undefined;
    this.logger.log({ protocolVersion: this.protocolVersion, cliVersion: this.cliVersion, generation: this.generation }, 'Copilot CLI connected');
  }

  /**
   * Asks the CLI to hand every model call to Switchboard. Only a protocol-3 CLI can, only before it has
   * a session (a CLI reached over TCP may have some already), and only where a handler takes the calls.
   */
  private async takeModelCalls(transport: CliTransport, protocolVersion: ProtocolVersion): Promise<ModelRouteState> {
    const previous = this.route;
    let route: ModelRouteState;
    if (!this.routeModelCalls) route = { routed: false, reason: 'SWITCHBOARD_MODEL_ROUTE is off' };
    else if (!this.requestHandlers.has('llmInference.httpRequestStart')) route = { routed: false, reason: 'this process does not route model calls' };
    else if (protocolVersion < 3)
      route = { routed: false, reason: `the Copilot CLI speaks protocol ${protocolVersion}, which cannot hand model calls to a client` };
    else {
      try {
        const answer = await transport.request<{ success?: boolean }>('llmInference.setProvider', {}, this.config.requestTimeoutMs);
        route = answer?.success === true ? { routed: true } : { routed: false, reason: 'the Copilot CLI declined llmInference.setProvider' };
      } catch (error) {
        route = { routed: false, reason: `the Copilot CLI refused llmInference.setProvider: ${(error as Error).message}` };
      }
    }
    if (route.routed !== previous.routed || (!route.routed && !previous.routed && route.reason !== previous.reason)) {
      if (route.routed) this.logger.log('Model calls go through Switchboard: the Copilot CLI hands every model request to it');
      else
        this.logger.warn(
          { reason: route.reason },
          `Model calls go straight from the Copilot CLI to the provider, without the model-call ledger: ${route.reason}`,
        );
    }
    return route;
  }

  private spawnCli(): CliTransport {
    // What the CLI's output sets off (its records, tool calls, questions) is Switchboard's work, not that
    // of the request that happened to start the CLI: its pipes keep the context they were made in.
    return asSystem(() => {
      const child = CliProcess.spawn(cliCommand(this.config, this.envPassthrough, process.env), {
        logger: this.logger,
        onExit: (code, signal) => this.onLost(child, code, signal),
      });
      this.process = child;
      return CliTransport.overStreams(child.stdout, child.stdin, this.transportOptions());
    });
  }

  private connectTcp(url: string): Promise<CliTransport> {
    return asSystem(() => CliTransport.connect(url, this.transportOptions(), (transport) => this.onLost(transport, null, 'socket closed')));
  }

  private transportOptions(): CliTransportOptions {
    return {
      maxMessageBytes: this.maxMessageBytes,
      logger: this.logger,
      onSessionEvent: (event) => this.events.next(event),
      requestHandler: (method) => this.requestHandlers.get(method),
      onUnreadable: () => this.dropUnreadable(),
    };
  }

  /** Unreadable input: the CLI goes as if it died (its sessions interrupted, a new one started). */
  private dropUnreadable(): void {
    if (this.process) this.process.kill();
    else this.transport?.close();
  }

  private onLost(source: CliProcess | CliTransport, code: number | null, signal: string | null): void {
    if (source !== this.process && source !== this.transport) return; // an old generation
    const generation = this.generation;
    const stderr = source instanceof CliProcess ? source.stderrTail() : undefined;
    void this.teardown();
    if (this.stopping) return;
    this.logger.error({ code, signal, generation, ...(stderr ? { stderr } : {}) }, 'Copilot CLI exited unexpectedly; restarting');
    const delay = this.restarts.exited();
    this.exits.next({ code, signal, generation });
    this.restartTimer = setTimeout(() => {
      this.ensureStarted().catch((error: unknown) => this.logger.error({ err: error }, 'Copilot CLI restart failed; the next request retries'));
    }, delay);
    this.restartTimer.unref();
  }

  /** Drops the connection and ends the process; the promise settles when the process is gone. */
  private teardown(): Promise<void> {
    const transport = this.transport;
    const child = this.process;
    this.transport = undefined;
    this.process = undefined;
    transport?.close();
    return child?.stop() ?? Promise.resolve();
  }
}
