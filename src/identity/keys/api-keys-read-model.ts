import { Injectable } from '@nestjs/common';
import { desc, eq, inArray } from 'drizzle-orm';
import { ReadModelDatabase } from '../../database';
import { type CredentialEnding, ROLES, type Role } from '../principal';

/** A named key as lists show it: never the secret, never its digest. */
export interface ApiKeyView {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  expiresAt: string | null;
  createdBy: string;
  createdAt: string;
  revokedAt: string | null;
  revokedBy: string | null;
  lastUsedAt: string | null;
}

/** A row of `api_keys`, on either database (the twins share column names and types). */
type ApiKeyRow = ReadModelDatabase['tables']['apiKeys']['$inferSelect'];

/** How often a key's `last_used_at` is written at most: a busy program must not turn every call into a write. */
const LAST_USED_EVERY_MS = 60_000;

/** The `api_keys` read model: one statement per read, on either database. */
@Injectable()
export class ApiKeysReadModel {
  private readonly lastUseWritten = new Map<string, number>();
  /** Once any key exists the open API is closed for good (rows are never deleted), so this only turns true. */
  private anyKeySeen = false;

  constructor(private readonly db: ReadModelDatabase) {}

  private get apiKeys() {
    return this.db.tables.apiKeys;
  }

  async list(): Promise<ApiKeyView[]> {
    const rows = await this.db.orm.select().from(this.apiKeys).orderBy(desc(this.apiKeys.createdAt), this.apiKeys.keyId);
    return rows.map((row) => viewOf(row));
  }

  async find(keyId: string): Promise<ApiKeyView | undefined> {
    const [row] = await this.db.orm.select().from(this.apiKeys).where(eq(this.apiKeys.keyId, keyId)).limit(1);
    return row ? viewOf(row) : undefined;
  }

  async bySecretDigest(secretSha256: string): Promise<ApiKeyView | undefined> {
    const [row] = await this.db.orm.select().from(this.apiKeys).where(eq(this.apiKeys.secretSha256, secretSha256)).limit(1);
    return row ? viewOf(row) : undefined;
  }

  /** Of these keys, the ones revoked or expired by now, with why (one statement): asked about keys with open streams. */
  async endingsOf(keyIds: readonly string[], now = Date.now()): Promise<Map<string, CredentialEnding>> {
    const endings = new Map<string, CredentialEnding>();
    if (keyIds.length === 0) return endings;
    const rows = await this.db.orm
      .select()
      .from(this.apiKeys)
      .where(inArray(this.apiKeys.keyId, [...keyIds]));
    for (const row of rows) {
      const ending = apiKeyEnding(viewOf(row), now);
      if (ending) endings.set(row.keyId, ending);
    }
    return endings;
  }

  async anyExists(): Promise<boolean> {
    if (this.anyKeySeen) return true;
    const [row] = await this.db.orm.select({ keyId: this.apiKeys.keyId }).from(this.apiKeys).limit(1);
    this.anyKeySeen = row !== undefined;
    return this.anyKeySeen;
  }

  /** Records a use, at most once a minute per key on this instance. */
  async used(keyId: string, now = Date.now()): Promise<void> {
    const last = this.lastUseWritten.get(keyId);
    if (last !== undefined && now - last < LAST_USED_EVERY_MS) return;
    this.lastUseWritten.set(keyId, now);
    await this.db.orm
      .update(this.apiKeys)
      .set({ lastUsedAt: new Date(now).toISOString() })
      .where(eq(this.apiKeys.keyId, keyId));
  }
}

function viewOf(row: ApiKeyRow): ApiKeyView {
  const role = ROLES.find((known) => known === row.role) ?? 'viewer';
  return {
    id: row.keyId,
    name: row.name,
    role,
    prefix: row.prefix,
    expiresAt: row.expiresAt,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    revokedBy: row.revokedBy,
    lastUsedAt: row.lastUsedAt,
  };
}

/** Why a key's open streams close: revoked, or past its expiry; undefined while it still works. */
export function apiKeyEnding(key: Pick<ApiKeyView, 'name' | 'prefix' | 'revokedAt' | 'expiresAt'>, now = Date.now()): CredentialEnding | undefined {
  if (key.revokedAt)
    return { code: 'credential_revoked', message: `API key "${key.name}" (${key.prefix}…) was revoked at ${key.revokedAt}: use another key` };
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) {
    return { code: 'credential_expired', message: `API key "${key.name}" (${key.prefix}…) expired at ${key.expiresAt}: have an admin create a new one` };
  }
  return undefined;
}
