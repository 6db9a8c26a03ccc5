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

const searchText = (agent: LibraryAgent) => `${agent.name}\n${agent.id}\n${agent.description}`.toLowerCase();
const wordsOf = (search: string) => search.toLowerCase().split(/\s+/).filter(Boolean);

/** The library's text, lower-cased once per load, so a keystroke only scans it. */
export function searchIndex<A extends LibraryAgent>(agents: readonly A[]): Array<{ agent: A; text: string }> {
  return agents.map((agent) => ({ agent, text: searchText(agent) }));
}

/** Case-insensitive, every word must appear in the name, the id or the description. */
export function searchIn<A extends LibraryAgent>(index: ReadonlyArray<{ agent: A; text: string }>, search: string): A[] {
  const words = wordsOf(search);
  if (words.length === 0) return index.map((entry) => entry.agent);
  return index.filter((entry) => words.every((word) => entry.text.includes(word))).map((entry) => entry.agent);
}

/** How many of the agents (those the search matched) each filter shows. */
export function filterCounts(agents: readonly LibraryAgent[]): Record<LibraryFilter, number> {
  const counts: Record<LibraryFilter, number> = { all: 0, teams: 0, composable: 0, standalone: 0 };
  for (const agent of agents) {
    for (const { value } of FILTERS) if (matchesFilter(agent, value)) counts[value]++;
  }
  return counts;
}

/** "has custom tools (a, b); sub-agents cannot…" -> "has custom tools": the card's short form of a reason. */
export function shortReason(reason: string): string {
  return reason.split(/[;(]/)[0].trim();
}
