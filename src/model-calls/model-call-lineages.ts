import { Injectable } from '@nestjs/common';
import { runIdOfThread } from '../event-store';
import { ChildSessionRouting } from '../child-sessions';
import { type Lineage, LineageLookup } from '../run-lineage';
import { SessionRegistry } from '../sessions';
import type { ModelCallLineage } from './model-call.events';

/** Who the CLI says made a call, off its `httpRequestStart`. */
export interface CallIdentity {
  sessionId: string;
  agentId?: string;
  parentAgentId?: string;
  agentInvocationId?: string;
}

/** Run lineages kept per session: a run never moves in its tree, so its session's answer never changes. */
const CACHED_SESSIONS = 10_000;

/**
 * A call's place on Switchboard's own entities: the session, the CLI sub-agent (the child-session
 * maps: a sub-agent's calls come after its `subagent.started`, on the same ordered connection), the run
 * and root run (run-lineage's `LineageLookup`), and the agent names from the top of the team down, as
 * approvals name them.
 */
@Injectable()
export class ModelCallLineages {
  private readonly runLineages = new Map<string, Lineage | null>();

  constructor(
    private readonly registry: SessionRegistry,
    private readonly routing: ChildSessionRouting,
    private readonly lineages: LineageLookup,
  ) {}

  async of(call: CallIdentity): Promise<ModelCallLineage> {
    const { sessionId } = call;
    const cliAgentId = call.agentId ?? sessionId;
    const run = await this.runOf(sessionId);
    const sessionAgent = run?.agentId ?? this.registry.get(sessionId)?.config.agentId ?? 'main';
    const subagents: string[] = [];
    if (call.parentAgentId && call.parentAgentId !== sessionId && call.parentAgentId !== cliAgentId) {
      subagents.push(this.routing.agentOf(call.parentAgentId) ?? 'sub-agent');
    }
    const isSubagent = cliAgentId !== sessionId;
    if (isSubagent) subagents.push(this.routing.agentOf(cliAgentId) ?? 'sub-agent');
    const top = run ? this.ownerAgentOf(run) : [];
    return {
      sessionId,
      cliAgentId,
      ...(call.parentAgentId ? { parentCliAgentId: call.parentAgentId } : {}),
      ...(call.agentInvocationId ? { agentInvocationId: call.agentInvocationId } : {}),
      agentName: subagents.at(-1) ?? sessionAgent,
      ...(isSubagent ? { subagentId: cliAgentId } : {}),
      ...(run ? { runId: run.runId, rootRunId: run.rootRunId, runPath: run.path } : {}),
      lineagePath: run ? [...top, ...run.agentPath, ...subagents] : [sessionAgent, ...subagents],
    };
  }

  private async runOf(sessionId: string): Promise<Lineage | undefined> {
    const cached = this.runLineages.get(sessionId);
    if (cached !== undefined) return cached ?? undefined;
    const lineage = await this.lineages.lineageOfSession(sessionId);
    // A session that is no run's thread is cached as such; a run not yet in the read model is asked again.
    if (lineage || runIdOfThread(sessionId) === undefined) {
      if (this.runLineages.size >= CACHED_SESSIONS) this.runLineages.delete(this.runLineages.keys().next().value as string);
      this.runLineages.set(sessionId, lineage ?? null);
    }
    return lineage;
  }

  /** The agent of the session that started the root run, when a session did (not the API). */
  private ownerAgentOf(run: Lineage): string[] {
    const owner = run.rootOwnerSessionId ? this.registry.get(run.rootOwnerSessionId)?.config.agentId : undefined;
    return owner ? [owner] : [];
  }
}
