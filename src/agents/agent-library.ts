import { Injectable } from '@nestjs/common';
import { asc, eq, sql } from 'drizzle-orm';
import { agents } from '../database/schema';
import { SqliteDatabase } from '../database/sqlite-database';
import type { AgentDefinition, AgentFields } from './agent-definition';
import { compositionProblems, type SubAgentProblem, subAgentProblems } from './agent-eligibility';

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

/** Read side of the agent library, over the `agents` read model. Other contexts (sessions) ask it too. */
@Injectable()
export class AgentLibrary {
  constructor(private readonly database: SqliteDatabase) {}

  find(id: string): (AgentDefinition & { version: number }) | undefined {
    const row = this.database.orm.select().from(agents).where(eq(agents.id, id)).get();
    return row ? toDefinition(row) : undefined;
  }

  all(): Array<AgentDefinition & { version: number }> {
    return this.database.orm.select().from(agents).orderBy(asc(agents.id)).all().map(toDefinition);
  }

  /** One agent's view: its sub-agents looked up by id and its teams found by SQLite, not a read of the whole library. */
  view(agent: AgentDefinition & { version: number }): AgentView {
    return viewOf(agent, (id) => this.find(id), new Map([[agent.id, this.teamsIncluding(agent.id)]]));
  }

  /** The ids of the agents whose sub_agents list `id`, in library order. */
  private teamsIncluding(id: string): string[] {
    return this.database.orm
      .select({ id: agents.id })
      .from(agents)
      .where(sql`exists (select 1 from json_each(${agents.fields}, '$.sub_agents') where value = ${id})`)
      .orderBy(asc(agents.id))
      .all()
      .map((row) => row.id);
  }

  /** Every agent's view, with one read of the table (no query per sub-agent). */
  views(): AgentView[] {
    const all = this.all();
    const lookup = lookupIn(all);
    const teams = teamsIncluding(all);
    return all.map((a) => viewOf(a, lookup, teams));
  }

  /**
   * What the library would say of a definition not saved yet (an editor's draft): the same rule set as
   * saving, so a console never carries a second copy of it.
   */
  checkDraft(id: string | undefined, fields: AgentFields): Pick<AgentView, 'composable' | 'composable_reasons' | 'sub_agent_problems'> {
    const reasons = compositionProblems(fields);
    return {
      composable: reasons.length === 0,
      composable_reasons: reasons,
      sub_agent_problems: subAgentProblems(id, fields.sub_agents, (subAgentId) => this.find(subAgentId)),
    };
  }
}

function viewOf(
  agent: AgentDefinition & { version: number },
  lookup: (id: string) => AgentDefinition | undefined,
  teams: Map<string, string[]>,
): AgentView {
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

function toDefinition(row: typeof agents.$inferSelect): AgentDefinition & { version: number } {
  const fields = JSON.parse(row.fields) as AgentFields;
  return { id: row.id, ...fields, created_at: row.createdAt, updated_at: row.updatedAt, version: row.version };
}
