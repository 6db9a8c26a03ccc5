import type { OutboundUrlGuard } from '../outbound';
import { hookUrlProblems } from './agent-hooks';
import type { AgentFields } from './agent-definition';
import { remoteAgentProblems, subAgentProblems } from './agent-eligibility';
import type { AgentLibrary, AgentView } from './agent-library';
import { AgentEndpointRefusedError, AgentNotFoundError, InvalidRemoteAgentError, SubAgentsRejectedError } from './agent.errors';

/**
 * What creating and updating an agent both check before the append: a remote agent sets nothing that runs
 * here, its hook and card URLs pass the outbound guard (absent in the maintenance commands, operator files),
 * and FR-1/FR-6 its sub-agents are eligible.
 */
export async function assertAgentSavable(id: string, fields: AgentFields, library: AgentLibrary, outbound?: OutboundUrlGuard): Promise<void> {
  const remote = remoteAgentProblems(fields);
  if (remote.length > 0) throw new InvalidRemoteAgentError(id, remote);
  if (outbound) {
    const refused = await hookUrlProblems(fields.hooks, (url) => outbound.check(url));
    // issue 43: a remote agent's card is checked as a webhook is; each call to it is checked again.
    const card = fields.remote ? await outbound.check(fields.remote.a2a) : undefined;
    if (card && !card.allowed && !card.unresolved)
      refused.push({ field: 'remote.a2a', reason: `the URL is refused by the outbound guard: ${card.reason}` });
    if (refused.length > 0) throw new AgentEndpointRefusedError(refused);
  }
  const problems = subAgentProblems(id, fields.sub_agents, await library.lookup(fields.sub_agents));
  if (problems.length > 0) throw new SubAgentsRejectedError(`Agent ${id}`, problems);
}

/**
 * The saved agent as the caller gets it back. The projection is inline, so the row is there once the
 * append resolved; deleted between the append and this read (another caller): 404 rather than a view of nothing.
 */
export async function savedAgentView(library: AgentLibrary, id: string): Promise<AgentView> {
  const saved = await library.find(id);
  if (!saved) throw new AgentNotFoundError(id);
  return library.view(saved);
}
