import type { Actor } from '../common';

/**
 * issue 27: an agent acting through a delegation tool (`agent_run`, `agent_stop`, `agent_output`):
 * named by the last agent of its lineage (root first: the agent of the session that started the team,
 * the run agents down to the caller, and a CLI-native sub-agent last), identified by the session that
 * called (and that sub-agent), since one agent may run in many sessions.
 */
export function agentActor(sessionId: string, lineage: readonly string[], agentName?: string): Actor {
  const name = lineage[lineage.length - 1] ?? agentName ?? 'main';
  return { kind: 'agent', id: agentName ? `session:${sessionId}/${agentName}` : `session:${sessionId}`, name, lineage: [...lineage] };
}
