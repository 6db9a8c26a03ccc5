import type { Choice } from '../ui/ChoiceList';

export interface AgentLike {
  id: string;
  name: string;
  icon: string;
}

/**
 * FR-3: the Sub-Agents selector of a session: every eligible agent but the session's own. The agent's
 * team (`sub_agents`) comes first in its order, then the others by name, so a toggle never moves a row.
 * A selected agent that is no longer eligible (or no longer exists) stays listed, flagged with the
 * service's reason, until it is unselected.
 */
export function subAgentChoices({
  ownAgentId,
  team,
  selected,
  eligible,
  problems,
  known,
}: {
  ownAgentId: string | undefined;
  team: readonly string[];
  selected: readonly string[];
  eligible: readonly AgentLike[];
  problems: ReadonlyArray<{ id: string; reason: string }>;
  known: ReadonlyMap<string, AgentLike>;
}): Choice[] {
  const label = (a: AgentLike) => `${a.icon ? `${a.icon} ` : ''}${a.name}`;
  const problemOf = new Map(problems.map((p) => [p.id, p.reason]));
  const eligibleById = new Map(eligible.map((a) => [a.id, a]));
  const picked = new Set(selected);
  const order = [...new Set([...team, ...selected])];
  const rest = eligible.filter((a) => !order.includes(a.id)).sort((a, b) => a.name.localeCompare(b.name));
  const choices: Choice[] = [];
  for (const id of [...order, ...rest.map((a) => a.id)]) {
    if (id === ownAgentId) continue;
    const agent = eligibleById.get(id) ?? known.get(id);
    if (eligibleById.has(id)) {
      choices.push({ value: id, label: label(agent!), hint: id });
    } else if (picked.has(id)) {
      choices.push({
        value: id,
        label: agent ? label(agent) : id,
        hint: id,
        problem: problemOf.get(id) ?? (agent ? `${id} cannot be a sub-agent` : `no agent with id ${id} exists`),
      });
    }
  }
  return choices;
}
