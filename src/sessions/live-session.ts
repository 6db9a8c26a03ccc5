import type { RecordedTrace } from '../common';
import type { DomainEvent, StoredEvent } from '../event-store';
import type { CustomAgentConfig, SessionConfig, ToolSpec } from './session-config';
import { type SessionState, sessionDecider } from './session.decider';
import type { SessionStatus } from './session.events';

/**
 * A session Switchboard owns: its configuration (tools, agents, policy) and where it stands. Where it
 * stands is the session decider's state, moved only by `apply` with the events the session appends or
 * receives, through the same `evolve` as the read model. It is the child-session resolver's
 * ParentSession structurally (checked where child-sessions uses it), so sessions does not import
 * child-sessions.
 */
export class LiveSession {
  private readonly toolsByName: Map<string, ToolSpec>;
  private state: SessionState;
  private agents: CustomAgentConfig[];
  /**
   * The stream as the decider folded it at the session's last command, and its version then, moved on by
   * every event of the stream committed since (`followCommitted`): the next command reads only what this
   * process did not see committed. Unset (a full load) until a command ran in this process.
   */
  commandBase?: { state: SessionState; version: number };
  /** Commands deciding on the stream now or waiting for their turn, and the CLI records held until they appended. */
  private deciding = 0;
  /** Settles when the last command queued so far is done: the next one starts after it. */
  private commandTurn: Promise<void> = Promise.resolve();
  private readonly heldRecords: Array<() => Promise<unknown>> = [];
  /** CLI records handed to the store and not yet committed (or refused): a command decides after them. */
  private readonly recordsInFlight = new Set<Promise<unknown>>();
  /** The resume a message started for a session between turns that no CLI of this process holds yet. */
  private resuming?: Promise<void>;

  constructor(
    readonly sessionId: string,
    config: SessionConfig,
    status: SessionStatus,
    /**
     * The CLI generation the session was created or resumed on; another generation means it must resume.
     * A fact of this process (generation 0 after a restart), not of the stream.
     */
    public cliGeneration: number,
    teamAgents: CustomAgentConfig[] = [],
    /**
     * Whether the CLI ever created it (`session.started` recorded). False when the service died between
     * recording `session.created` and the CLI's answer: resuming then creates it from the recorded configuration.
     */
    cliCreated = true,
  ) {
    this.toolsByName = new Map(config.tools.map((t) => [t.name, t]));
    this.state = { status, config, teamAgents, cliCreated };
    this.agents = [...config.customAgents, ...teamAgents];
  }

  /** A session from the decider's state (as folded from its stream), with the team it starts with. */
  static fromState(sessionId: string, state: SessionState, cliGeneration: number, teamAgents = state.teamAgents): LiveSession {
    if (state.status === 'absent' || !state.config) throw new Error(`Session ${sessionId} has no session.created`);
    const session = new LiveSession(sessionId, state.config, state.status, cliGeneration, teamAgents, state.cliCreated);
    if (state.trace) session.state = { ...session.state, trace: state.trace };
    return session;
  }

  get status(): SessionStatus {
    return this.state.status as SessionStatus;
  }

  get config(): SessionConfig {
    return this.state.config as SessionConfig;
  }

  get cliCreated(): boolean {
    return this.state.cliCreated;
  }

  /**
   * issue 28: the trace of its last message (the turn's span, or its run's): what its tool calls, hooks
   * and runs nest under. A session loaded from its read-model row learns it at its first command, which
   * folds the whole stream (`commandBase`); a message is only ever recorded by a command.
   */
  get trace(): RecordedTrace | undefined {
    return this.state.trace ?? this.commandBase?.state.trace;
  }

  /** What the CLI was given: the inline agents plus the team's sub-agents as mapped at the last start. */
  get customAgents(): CustomAgentConfig[] {
    return this.agents;
  }

  /**
   * issue 41: an event of the session's stream as the store committed it (each once, in order). The next
   * command's base folds it as the command's own read would (the decider's events evolve the state, any
   * other only counts), so a message after a turn reads nothing back from the store, where it read and
   * folded the turn's hundred-odd CLI records again. An event that does not follow the base (none yet, or
   * one committed by another instance in between) leaves it: the command then reads what it lacks.
   */
  followCommitted(event: StoredEvent): void {
    const base = this.commandBase;
    if (!base || event.streamPosition !== base.version + 1) return;
    this.commandBase = { state: sessionDecider.isEvent(event) ? sessionDecider.evolve(base.state, event) : base.state, version: event.streamPosition };
  }

  /** A command's outcome as the next one's base, unless the base already followed the commits past it. */
  settleCommand(result: { state: SessionState; version: number }): void {
    if (!this.commandBase || result.version >= this.commandBase.version) this.commandBase = { state: result.state, version: result.version };
  }

  /** Moves the session by events it appended or received (other contexts' events leave it as it is). */
  apply(events: readonly DomainEvent[]): void {
    const before = this.state;
    this.state = events.reduce((state, event) => sessionDecider.evolve(state, event as Parameters<typeof sessionDecider.evolve>[1]), before);
    if (this.state.teamAgents !== before.teamAgents || this.state.config !== before.config) {
      this.agents = [...this.config.customAgents, ...this.state.teamAgents];
    }
  }

  /**
   * Runs a command that reads the stream and appends at the version it read, after the commands on
   * this session before it: each decides on the state the previous one left (`commandBase`), so
   * concurrent commands on one session never conflict with each other (they would all read the same
   * version and all but one retry, a retry per winner) and only the first one after a start folds the
   * whole stream. The CLI's records of the session (appended without a version) wait until no command
   * is deciding: recorded meanwhile, they would move the version on under it, and a CLI streaming fast
   * enough would make it conflict on every retry (on PostgreSQL a read and an append are round trips).
   * Records already handed to the store when a command comes (they wait a few ms to share a commit)
   * are waited for before it reads: read without them, it would append at a version they then take,
   * be refused and decide again (a run's prompt, sent as its new session's first events are recorded,
   * was refused once a run).
   */
  async whileDeciding<T>(command: () => Promise<T>): Promise<T> {
    this.deciding += 1;
    const mine = this.commandTurn.then(() => this.recordsCommitted()).then(command);
    this.commandTurn = mine.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await mine;
    } finally {
      this.deciding -= 1;
      if (this.deciding === 0) this.heldRecords.splice(0).forEach((append) => this.track(append));
    }
  }

  /**
   * Appends a CLI record now, or, while a command is deciding, right after it appended (records keep
   * their order). `append` gives the append's promise, its failure handled by the caller.
   */
  record(append: () => Promise<unknown>): void {
    if (this.deciding > 0) this.heldRecords.push(append);
    else this.track(append);
  }

  private track(append: () => Promise<unknown>): void {
    const appended: Promise<void> = append().then(
      () => void this.recordsInFlight.delete(appended),
      () => void this.recordsInFlight.delete(appended),
    );
    this.recordsInFlight.add(appended);
  }

  /** Settles when the records handed to the store so far have committed (new ones are held meanwhile: a command is deciding). */
  private async recordsCommitted(): Promise<void> {
    if (this.recordsInFlight.size > 0) await Promise.all(this.recordsInFlight);
  }

  /**
   * One resume for messages that arrive together at a session between turns no CLI of this process
   * holds (reloaded idle after a restart): the later ones wait for the first one's resume, not a second.
   */
  resumeOnce(resume: () => Promise<unknown>): Promise<void> {
    this.resuming ??= resume()
      .then(() => undefined)
      .finally(() => (this.resuming = undefined));
    return this.resuming;
  }

  agentToolAllowlist(agentName: string): readonly string[] | null | undefined {
    return this.customAgents.find((a) => a.name === agentName)?.tools;
  }

  hasTool(toolName: string): boolean {
    return this.toolsByName.has(toolName);
  }

  tool(toolName: string): ToolSpec | undefined {
    return this.toolsByName.get(toolName);
  }
}
