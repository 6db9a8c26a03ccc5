import { eq } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { one, type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../projections';
import type { AgentFields } from '../agent-definition';
import { applyAgentChanges } from '../agent.decider';
import { AgentEvents, isAgentEvent } from '../agent.events';

/** Inline: the `agents` table, never behind the agent streams. */
@ReadModelProjection()
export class AgentsProjection extends PerEventProjection {
  readonly name = 'agents';
  readonly mode = 'inline';
  readonly tables = ['agents'] as const;
  readonly eventTypes = Object.values(AgentEvents);

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isAgentEvent(event)) return;
    const { agents } = db.tables;
    switch (event.type) {
      case AgentEvents.created: {
        const d = event.data;
        const row = { name: d.fields.name, fields: JSON.stringify(d.fields), version: event.streamPosition, updatedAt: event.recordedAt };
        yield* run(
          db.orm
            .insert(agents)
            .values({ id: d.id, createdAt: event.recordedAt, ...row })
            .onConflictDoUpdate({ target: agents.id, set: { ...row, createdAt: event.recordedAt } }),
        );
        return;
      }
      case AgentEvents.updated: {
        const d = event.data;
        const current = yield* one(db.orm.select({ fields: agents.fields }).from(agents).where(eq(agents.id, d.id)));
        if (!current) return;
        const fields = applyAgentChanges(JSON.parse(current.fields) as AgentFields, d.changes);
        yield* run(
          db.orm
            .update(agents)
            .set({ name: fields.name, fields: JSON.stringify(fields), version: event.streamPosition, updatedAt: event.recordedAt })
            .where(eq(agents.id, d.id)),
        );
        return;
      }
      case AgentEvents.deleted:
        yield* run(db.orm.delete(agents).where(eq(agents.id, event.data.id)));
        return;
    }
  }
}
