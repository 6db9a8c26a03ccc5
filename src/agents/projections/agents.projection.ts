import { eq } from 'drizzle-orm';
import { agents } from '../../database/schema';
import type { Orm } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import type { AgentFields } from '../agent-definition';
import { AgentEvents, applyAgentChanges, isAgentEvent } from '../agent.decider';

/** Inline: the `agents` table, never behind the agent streams. */
@ReadModelProjection()
export class AgentsProjection implements Projection {
  readonly name = 'agents';
  readonly mode = 'inline';
  readonly tables = [agents];
  readonly eventTypes = Object.values(AgentEvents);

  apply(event: StoredEvent, orm: Orm): void {
    if (!isAgentEvent(event)) return;
    switch (event.type) {
      case AgentEvents.created: {
        const d = event.data;
        const row = { name: d.fields.name, fields: JSON.stringify(d.fields), version: event.streamPosition, updatedAt: event.recordedAt };
        orm
          .insert(agents)
          .values({ id: d.id, createdAt: event.recordedAt, ...row })
          .onConflictDoUpdate({ target: agents.id, set: { ...row, createdAt: event.recordedAt } })
          .run();
        return;
      }
      case AgentEvents.updated: {
        const d = event.data;
        const current = orm.select({ fields: agents.fields }).from(agents).where(eq(agents.id, d.id)).get();
        if (!current) return;
        const fields = applyAgentChanges(JSON.parse(current.fields) as AgentFields, d.changes);
        orm
          .update(agents)
          .set({ name: fields.name, fields: JSON.stringify(fields), version: event.streamPosition, updatedAt: event.recordedAt })
          .where(eq(agents.id, d.id))
          .run();
        return;
      }
      case AgentEvents.deleted:
        orm.delete(agents).where(eq(agents.id, event.data.id)).run();
        return;
    }
  }
}
