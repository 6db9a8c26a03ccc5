/**
 * spec: subagent-tool-dispatch. Routes requests that arrive with a CHILD session id (a sub-agent
 * launched by the CLI) to the PARENT session that owns the handlers.
 *
 * Node is single-threaded, so the maps need no lock; what the spec's "no lock during handler
 * execution" rule asks for holds by construction: resolution is synchronous and returns before any
 * handler (webhook, permission policy...) is awaited.
 */

export interface SubagentInstance {
  agentName: string;
  toolCallId: string;
  childSessionId: string;
  startedAt: Date;
}

/** What the resolver needs of a parent session: its id and each custom agent's tool allowlist. */
export interface ParentSession {
  readonly sessionId: string;
  /** The agent's `tools` list; null/undefined when unset ("all parent tools"). */
  agentToolAllowlist(agentName: string): readonly string[] | null | undefined;
  /** Whether the session registered this tool at all. */
  hasTool(toolName: string): boolean;
}

export type Resolution<S> = { ok: true; session: S; isChild: boolean } | { ok: false; error: string };

export const resolverErrors = {
  unknownSession: (id: string) => `unknown session ${id}`,
  parentNotFound: (parentId: string, childId: string) => `parent session ${parentId} for child ${childId} not found`,
  toolNotSupported: (toolName: string) => `Tool '${toolName}' is not supported by this client instance.`,
};

export class ChildSessionResolver<S extends ParentSession> {
  readonly childToParent = new Map<string, string>();
  readonly childToAgent = new Map<string, string>();
  readonly subagentInstances = new Map<string, Map<string, SubagentInstance>>();

  constructor(private readonly sessions: { get(sessionId: string): S | undefined }) {}

  /** subagent.started: register child -> parent and child -> agent, and track the launch. */
  registerSubagentStarted(parentSessionId: string, instance: SubagentInstance): void {
    this.mapChild(instance.childSessionId, parentSessionId, instance.agentName);
    let launches = this.subagentInstances.get(parentSessionId);
    if (!launches) this.subagentInstances.set(parentSessionId, (launches = new Map<string, SubagentInstance>()));
    launches.set(instance.toolCallId, instance);
  }

  /**
   * Another id the same child is known by (protocol 3: the task id in the event envelope and the
   * child's native session id in request data both identify one sub-agent).
   */
  mapChild(childSessionId: string, parentSessionId: string, agentName: string): void {
    this.childToParent.set(childSessionId, parentSessionId);
    this.childToAgent.set(childSessionId, agentName);
  }

  /** subagent.completed / failed: forget the instance only; mappings stay for late requests. */
  registerSubagentEnded(parentSessionId: string, toolCallId: string): SubagentInstance | undefined {
    const launches = this.subagentInstances.get(parentSessionId);
    const instance = launches?.get(toolCallId);
    launches?.delete(toolCallId);
    return instance;
  }

  resolveSession(sessionId: string): Resolution<S> {
    const direct = this.sessions.get(sessionId);
    if (direct) return { ok: true, session: direct, isChild: false };
    const parentId = this.childToParent.get(sessionId);
    if (parentId !== undefined) {
      const parent = this.sessions.get(parentId);
      if (parent) return { ok: true, session: parent, isChild: true };
      return { ok: false, error: resolverErrors.parentNotFound(parentId, sessionId) };
    }
    return { ok: false, error: resolverErrors.unknownSession(sessionId) };
  }

  /** Allowlist: unset = every parent tool, [] = none, a list = those only; never an unregistered tool. */
  isToolAllowedForChild(childSessionId: string, toolName: string): boolean {
    const parentId = this.childToParent.get(childSessionId);
    const parent = parentId === undefined ? undefined : this.sessions.get(parentId);
    if (!parent || !parent.hasTool(toolName)) return false;
    const agentName = this.childToAgent.get(childSessionId);
    if (agentName === undefined) return false;
    const allowlist = parent.agentToolAllowlist(agentName);
    if (allowlist === null || allowlist === undefined) return true;
    return allowlist.includes(toolName);
  }

  /** Session delete or destroy: drop that parent's children and its instance map. */
  removeParent(parentSessionId: string): string[] {
    const removed: string[] = [];
    for (const [child, parent] of this.childToParent) {
      if (parent !== parentSessionId) continue;
      this.childToParent.delete(child);
      this.childToAgent.delete(child);
      removed.push(child);
    }
    this.subagentInstances.delete(parentSessionId);
    return removed;
  }

  /** Client stop / shutdown. */
  clear(): void {
    this.childToParent.clear();
    this.childToAgent.clear();
    this.subagentInstances.clear();
  }

  activeInstances(parentSessionId: string): SubagentInstance[] {
    return [...(this.subagentInstances.get(parentSessionId)?.values() ?? [])];
  }
}
