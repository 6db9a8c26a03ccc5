import { filterCounts, type LibraryAgent, matchesFilter, searchIn, searchIndex, shortReason } from './library-filter';

const matchesSearch = (agent: LibraryAgent, search: string) => searchIn(searchIndex([agent]), search).length === 1;

const agent = (id: string, over: Partial<LibraryAgent> = {}): LibraryAgent => ({
  id,
  name: `Agent ${id}`,
  description: `${id} description`,
  subAgents: [],
  includedIn: [],
  composable: false,
  ...over,
});

const lead = agent('lead', { subAgents: ['reviewer'], name: 'Engineering Lead', description: 'Plans the work' });
const reviewer = agent('reviewer', { includedIn: ['lead'], composable: true, name: 'Code Reviewer', description: 'Reviews pull requests' });
const loner = agent('loner', { composable: true });
const tooled = agent('tooled');

describe('library filters', () => {
  it('sorts agents into teams, composable and standalone by what the service said of them', () => {
    const library = [lead, reviewer, loner, tooled];
    expect(library.filter((a) => matchesFilter(a, 'teams')).map((a) => a.id)).toEqual(['lead']);
    expect(library.filter((a) => matchesFilter(a, 'composable')).map((a) => a.id)).toEqual(['reviewer', 'loner']);
    // Standalone: no team of its own and in nobody's team, composable or not.
    expect(library.filter((a) => matchesFilter(a, 'standalone')).map((a) => a.id)).toEqual(['loner', 'tooled']);
    expect(library.filter((a) => matchesFilter(a, 'all'))).toHaveLength(4);
  });

  it('searches name, id and description, every word, in any case', () => {
    expect(matchesSearch(reviewer, 'code')).toBe(true);
    expect(matchesSearch(reviewer, 'REVIEWER')).toBe(true);
    expect(matchesSearch(reviewer, 'pull requests')).toBe(true);
    expect(matchesSearch(reviewer, 'pull lead')).toBe(false);
    expect(matchesSearch(lead, '  ')).toBe(true);
  });

  it('counts each filter within the current search', () => {
    const index = searchIndex([lead, reviewer, loner, tooled]);
    expect(filterCounts(searchIn(index, ''))).toEqual({ all: 4, teams: 1, composable: 2, standalone: 2 });
    expect(searchIn(index, 'Review')).toEqual([reviewer]);
    expect(filterCounts(searchIn(index, 'review'))).toEqual({ all: 1, teams: 0, composable: 1, standalone: 0 });
  });

  it("shortens the service's reason to what a card has room for", () => {
    expect(shortReason('has custom tools (deploy); sub-agents cannot carry custom tools, remove them from tools.custom')).toBe('has custom tools');
    expect(shortReason('has no prompt; set system_message.content')).toBe('has no prompt');
  });
});
