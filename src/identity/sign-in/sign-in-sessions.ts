import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { SWITCHBOARD_CONFIG } from '../../config/config.module';
import type { SwitchboardConfig } from '../../config/switchboard-config';
import { ReadModelDatabase } from '../../database/read-model-database';
import { ROLES, type Principal, type Role } from '../principal';

/** Who signed in, as the session keeps it. */
export interface SignedInPerson {
  subject: string;
  name: string;
  role: Role;
}

/** Why a session cookie is not accepted (the 401 says it). */
export type SessionLookup = { person: SignedInPerson } | { ended: 'unknown' | 'expired' | 'revoked' };

/**
 * Server-side sessions of people signed in through OpenID Connect: the browser gets a random id
 * (256 bits) in its cookie, the table keeps its SHA-256. Read per request, so a sign-out or a
 * revocation holds at once on every instance sharing the database.
 */
@Injectable()
export class SignInSessions {
  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly db: ReadModelDatabase,
  ) {}

  get ttlMs(): number {
    return this.config.signIn.sessionTtlMs;
  }

  private clock(): Date {
    return new Date();
  }

  /** Starts a session; answers the id the cookie carries (never stored as such). */
  async start(person: SignedInPerson): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    await this.db.orm.insert(this.db.tables.signInSessions).values({
      idHash: hashOf(id),
      subject: person.subject,
      name: person.name,
      role: person.role,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + this.config.signIn.sessionTtlMs).toISOString(),
    });
    return id;
  }

  async lookup(id: string): Promise<SessionLookup> {
    const { signInSessions } = this.db.tables;
    const [row] = await this.db.orm
      .select()
      .from(signInSessions)
      .where(eq(signInSessions.idHash, hashOf(id)))
      .limit(1);
    if (!row) return { ended: 'unknown' };
    if (row.revokedAt) return { ended: 'revoked' };
    if (row.expiresAt <= this.clock().toISOString()) return { ended: 'expired' };
    const role = ROLES.find((r) => r === row.role) ?? 'viewer';
    return { person: { subject: row.subject, name: row.name, role } };
  }

  /** Sign-out: the session is refused from now on, wherever the cookie is replayed. */
  async end(id: string): Promise<void> {
    const { signInSessions } = this.db.tables;
    await this.db.orm
      .update(signInSessions)
      .set({ revokedAt: this.clock().toISOString() })
      .where(and(eq(signInSessions.idHash, hashOf(id)), isNull(signInSessions.revokedAt)));
  }
}

export function principalOfPerson(person: SignedInPerson): Principal {
  return { kind: 'user', id: person.subject, name: person.name, role: person.role, via: 'cookie' };
}

const hashOf = (id: string): string => createHash('sha256').update(id, 'utf8').digest('hex');
