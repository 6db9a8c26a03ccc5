/**
 * issue 27: who did something, recorded on every command's events as `metadata.by` (the older
 * `metadata.actor` string stays as it was). `user`: a signed-in person (or the local admin of an open
 * loopback service); `key`: a named API key or the operator's bootstrap token; `agent`: an agent acting
 * through a tool (`agent_run`, `agent_stop`...), with its lineage; `system`: Switchboard itself (time
 * limits, budgets, recovery, replays). An event recorded before issue 27 has none and reads as `API_ACTOR`.
 */
export interface Actor {
  kind: 'user' | 'key' | 'agent' | 'system';
  id: string;
  name: string;
  /** An agent actor's lineage: agent names from the top of the team down to it. */
  lineage?: string[];
  /** Where a person's or key's request came from: the console, another API client, or an MCP client at `/mcp`. */
  via?: 'console' | 'api' | 'mcp' | 'a2a';
}

export const ACTOR_KINDS: readonly Actor['kind'][] = ['user', 'key', 'agent', 'system'];

/** What an event recorded without `metadata.by` (before issue 27) reads as. Nothing is rewritten. */
export const API_ACTOR: Actor = { kind: 'key', id: 'api', name: 'api' };

/** Switchboard itself. */
export const SYSTEM_ACTOR: Actor = { kind: 'system', id: 'switchboard', name: 'Switchboard' };

/** The actor an event names: its `metadata.by`, else the pre-issue-27 `api` actor. */
export function actorOfMetadata(metadata: { by?: unknown } | undefined): Actor {
  const by = metadata?.by;
  if (typeof by === 'object' && by !== null) {
    const { kind, id, name } = by as Record<string, unknown>;
    if (typeof kind === 'string' && (ACTOR_KINDS as readonly string[]).includes(kind) && typeof id === 'string' && typeof name === 'string') {
      return by as Actor;
    }
  }
  return API_ACTOR;
}
