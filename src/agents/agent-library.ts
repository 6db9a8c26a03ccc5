import { Injectable } from '@nestjs/common';
import { asc, eq } from 'drizzle-orm';
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

  view(agent: AgentDefinition & { version: number }, lookup: (id: string) => AgentDefinition | undefined = (id) => this.find(id)): AgentView {
    const reasons = compositionProblems(agent);
    return {
      ...agent,
      composable: reasons.length === 0,
      composable_reasons: reasons,
      sub_agent_problems: subAgentProblems(agent.id, agent.sub_agents, lookup),
    };
  }

  /** Every agent's view, with one read of the table (no query per sub-agent). */
  views(): AgentView[] {
    const all = this.all();
    const byId = new Map(all.map((a) => [a.id, a]));
    return all.map((a) => this.view(a, (id) => byId.get(id)));
  }
}

function toDefinition(row: typeof agents.$inferSelect): AgentDefinition & { version: number } {
  const fields = JSON.parse(row.fields) as AgentFields;
  return { id: row.id, ...fields, created_at: row.createdAt, updated_at: row.updatedAt, version: row.version };
}
