import { Injectable } from '@nestjs/common';
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { ReadModelDatabase } from '../database';
import type { AgentDefinition, AgentFields } from './agent-definition';
import { compositionProblems, type SubAgentProblem, subAgentProblems } from './agent-eligibility';

/** An agent as the library holds it: the definition and its stream version. */
export type LibraryAgent = AgentDefinition & { version: number };

/** An agent as the API shows it: the definition plus what the library knows about it now. */
export interface AgentView extends AgentDefinition {
  version: number;
  /** FR-7: can it be used as a sub-agent, and if not, why. */
  composable: boolean;
  composable_reasons: string[];
  /** FR-6: its own sub-agents that are unknown or no longer eligible (changed or deleted since it was saved). */
  sub_agent_problems: SubAgentProblem[];
  /** FR-7's reverse map: the agents whose team includes this one (their sub_agents list it), by id. */
  included_in: string[];
}

/**
 * Read side of the agent library, over the `agents` read model on either database. Other contexts
 * (sessions, delegation) ask it too. The eligibility rules stay synchronous and pure: callers first
 * read the agents a rule set needs (`lookup`), in one statement, then apply it.
 */
@Injectable()
export class AgentLibrary {
  constructor(private readonly db: ReadModelDatabase) {}

  async find(id: string): Promise<LibraryAgent | undefined> {
    const { agents } = this.db.tables;
    const [row] = await this.db.orm.select().from(agents).where(eq(agents.id, id)).limit(1);
    return row ? toDefinition(row) : undefined;
  }

  /** The agents with these ids that exist, by id, in one statement. */
  async findMany(ids: readonly string[]): Promise<Map<string, LibraryAgent>> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return new Map();
    const { agents } = this.db.tables;
    const rows = await this.db.orm.select().from(agents).where(inArray(agents.id, wanted));
    return new Map(rows.map((row) => [row.id, toDefinition(row)]));
  }

  /** A synchronous lookup over `ids` as they are now, for `subAgentProblems` (an id not read is unknown). */
  async lookup(ids: readonly string[]): Promise<(id: string) => LibraryAgent | undefined> {
    const found = await this.findMany(ids);
    return (id) => found.get(id);
  }

  async all(): Promise<LibraryAgent[]> {
    const { agents } = this.db.tables;
    return (await this.db.orm.select().from(agents).orderBy(this.libraryOrder())).map(toDefinition);
  }

  /** One agent's view: its sub-agents looked up by id and its teams found by the database, not a read of the whole library. */
  async view(agent: LibraryAgent): Promise<AgentView> {
    const [lookup, teams] = await Promise.all([this.lookup(agent.sub_agents), this.teamsIncluding(agent.id)]);
    return viewOf(agent, lookup, new Map([[agent.id, teams]]));
  }

  /** The ids of the agents whose sub_agents list `id`, in library order. */
  async teamsIncluding(id: string): Promise<string[]> {
    const { agents } = this.db.tables;
    // `fields` is JSON text on both databases; only the membership test is the dialect's own.
    const listsIt =
      this.db.dialect === 'sqlite'
        ? sql`exists (select 1 from json_each(${agents.fields}, '$.sub_agents') where value = ${id})`
        : sql`(${agents.fields})::jsonb -> 'sub_agents' @> jsonb_build_array(${id}::text)`;
    const rows = await this.db.orm.select({ id: agents.id }).from(agents).where(listsIt).orderBy(this.libraryOrder());
    return rows.map((row) => row.id);
  }

  /** Every agent's view, with one read of the table (no query per sub-agent). */
  async views(): Promise<AgentView[]> {
    const all = await this.all();
    const lookup = lookupIn(all);
    const teams = teamsIncluding(all);
    return all.map((a) => viewOf(a, lookup, teams));
  }

  /**
   * What the library would say of a definition not saved yet (an editor's draft): the same rule set as
   * saving, so a console never carries a second copy of it.
   */
  async checkDraft(id: string | undefined, fields: AgentFields): Promise<Pick<AgentView, 'composable' | 'composable_reasons' | 'sub_agent_problems'>> {
    const reasons = compositionProblems(fields);
    return {
      composable: reasons.length === 0,
      composable_reasons: reasons,
      sub_agent_problems: subAgentProblems(id, fields.sub_agents, await this.lookup(fields.sub_agents)),
    };
  }

  /**
   * By id, byte by byte as SQLite compares text: PostgreSQL would otherwise sort by the database's
   * locale (en_US puts "ab" before "a-c"), and the library's order would depend on how it was created.
   */
  private libraryOrder(): SQL {
    const { agents } = this.db.tables;
    return this.db.dialect === 'sqlite' ? asc(agents.id) : sql`${agents.id} collate "C"`;
  }
}

function viewOf(agent: LibraryAgent, lookup: (id: string) => AgentDefinition | undefined, teams: Map<string, string[]>): AgentView {
  const reasons = compositionProblems(agent);
  return {
    ...agent,
    composable: reasons.length === 0,
    composable_reasons: reasons,
    sub_agent_problems: subAgentProblems(agent.id, agent.sub_agents, lookup),
    included_in: teams.get(agent.id) ?? [],
  };
}

function lookupIn(all: readonly AgentDefinition[]): (id: string) => AgentDefinition | undefined {
  const byId = new Map(all.map((a) => [a.id, a]));
  return (id) => byId.get(id);
}

/** sub-agent id -> the ids of the agents that list it, in library order. */
function teamsIncluding(all: readonly AgentDefinition[]): Map<string, string[]> {
  const teams = new Map<string, string[]>();
  for (const agent of all) {
    for (const member of new Set(agent.sub_agents)) teams.set(member, [...(teams.get(member) ?? []), agent.id]);
  }
  return teams;
}

function toDefinition(row: { id: string; fields: string; version: number; createdAt: string; updatedAt: string }): LibraryAgent {
  const fields = JSON.parse(row.fields) as AgentFields;
  return { id: row.id, ...fields, created_at: row.createdAt, updated_at: row.updatedAt, version: row.version };
}
