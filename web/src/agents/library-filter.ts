// What the library's filters and search mean. The eligibility itself (composable) comes from the
// service; this only sorts agents by what the service already said of them.

export interface LibraryAgent {
  id: string;
  name: string;
  description: string;
  subAgents: readonly string[];
  includedIn: readonly string[];
  composable: boolean;
}

export type LibraryFilter = 'all' | 'teams' | 'composable' | 'standalone';

export const FILTERS: Array<{ value: LibraryFilter; label: string; title: string }> = [
  { value: 'all', label: 'All', title: 'Every agent' },
  { value: 'teams', label: 'Teams', title: 'Agents with sub-agents of their own' },
  { value: 'composable', label: 'Composable', title: 'Agents that can be a sub-agent of a team' },
  { value: 'standalone', label: 'Standalone', title: 'Agents with no team of their own and in no team' },
];

export function matchesFilter(agent: LibraryAgent, filter: LibraryFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'teams':
      return agent.subAgents.length > 0;
    case 'composable':
      return agent.composable;
    case 'standalone':
      return agent.subAgents.length === 0 && agent.includedIn.length === 0;
  }
}

/** Case-insensitive, every word must appear in the name, the id or the description. */
export function matchesSearch(agent: LibraryAgent, search: string): boolean {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = `${agent.name}\n${agent.id}\n${agent.description}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

export function filterCounts(agents: readonly LibraryAgent[], search: string): Record<LibraryFilter, number> {
  const counts: Record<LibraryFilter, number> = { all: 0, teams: 0, composable: 0, standalone: 0 };
  for (const agent of agents) {
    if (!matchesSearch(agent, search)) continue;
    for (const { value } of FILTERS) if (matchesFilter(agent, value)) counts[value]++;
  }
  return counts;
}

/** "has custom tools (a, b); sub-agents cannot…" -> "has custom tools": the card's short form of a reason. */
export function shortReason(reason: string): string {
  return reason.split(/[;(]/)[0].trim();
}
