import { eq } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../../database';
import type { StoredEvent } from '../../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../../projections';
import { ApiKeyEvents, isApiKeyEvent } from '../api-key.events';

/**
 * Inline: a key works, and a revoked key stops working, in the commit that records it; every instance
 * reads the table per request, so a revocation holds at once everywhere.
 */
@ReadModelProjection()
export class ApiKeysProjection extends PerEventProjection {
  readonly name = 'api-keys';
  readonly mode = 'inline';
  readonly tables = ['apiKeys'] as const;
  readonly eventTypes = Object.values(ApiKeyEvents);

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isApiKeyEvent(event)) return;
    const { apiKeys } = db.tables;
    if (event.type === ApiKeyEvents.created) {
      const d = event.data;
      yield* run(
        db.orm
          .insert(apiKeys)
          .values({
            keyId: d.keyId,
            name: d.name,
            role: d.role,
            prefix: d.prefix,
            secretSha256: d.secretSha256,
            expiresAt: d.expiresAt ?? null,
            createdBy: d.createdBy,
            createdAt: d.createdAt,
          })
          .onConflictDoNothing(),
      );
      return;
    }
    const d = event.data;
    yield* run(db.orm.update(apiKeys).set({ revokedAt: d.revokedAt, revokedBy: d.revokedBy }).where(eq(apiKeys.keyId, d.keyId)));
  }
}
