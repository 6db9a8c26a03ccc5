import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, gt, isNull, like, lte, or } from 'drizzle-orm';
import { createHash, randomBytes } from 'node:crypto';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../../config';
import { ReadModelDatabase } from '../../database';
import { type CredentialEnding, ROLES, type Principal, type Role } from '../principal';
import { SignInSessionEndedError, SignInSessionNotFoundError } from './sign-in-session.errors';

/** Who signed in, as the session keeps it. */
export interface SignedInPerson {
  subject: string;
  name: string;
  role: Role;
}

/**
 * A session as an admin sees it (GET /api/sign-in-sessions): never the cookie's id. `revoked` covers a
 * sign-out and an admin's revocation alike (both set revokedAt).
 */
export interface SignInSessionView {
  id: string;
  subject: string;
  name: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  state: 'active' | 'expired' | 'revoked';
}

/** Why a session cookie is not accepted (the 401 says it). */
export type SessionLookup = { person: SignedInPerson; session: { id: string; expiresAt: string } } | { ended: 'unknown' | 'expired' | 'revoked' };

/** Why a session's open streams close (issue 39). */
export const SESSION_ENDED: Record<'revoked' | 'expired', CredentialEnding> = {
  revoked: { code: 'credential_revoked', message: 'Your sign-in session was ended (signed out or revoked): sign in again at /auth/login' },
  expired: { code: 'credential_expired', message: 'Your sign-in session expired: sign in again at /auth/login' },
};

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

  /**
   * Starts a session; answers the id the cookie carries (never stored as such). Sessions past their
   * expiry are deleted here, where rows are added, so the table holds no more than the sessions of one
   * time-to-live (an expired or unknown cookie gets the same 401 either way).
   */
  async start(person: SignedInPerson): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const { signInSessions } = this.db.tables;
    await this.db.orm.delete(signInSessions).where(lte(signInSessions.expiresAt, now.toISOString()));
    await this.db.orm.insert(signInSessions).values({
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
    return { person: { subject: row.subject, name: row.name, role }, session: { id: sessionIdOf(row.idHash), expiresAt: row.expiresAt } };
  }

  /** Of these sessions (admin API ids), the ones ended by now (signed out, revoked, expired, gone), with why: one statement. */
  async endingsOf(sessionIds: readonly string[]): Promise<Map<string, CredentialEnding>> {
    const endings = new Map<string, CredentialEnding>();
    const prefixes = sessionIds.map((id) => hashPrefixOf(id)).filter((prefix): prefix is string => prefix !== undefined);
    if (prefixes.length === 0) return endings;
    const { signInSessions } = this.db.tables;
    const rows = await this.db.orm
      .select({ idHash: signInSessions.idHash, revokedAt: signInSessions.revokedAt, expiresAt: signInSessions.expiresAt })
      .from(signInSessions)
      .where(or(...prefixes.map((prefix) => like(signInSessions.idHash, `${prefix}%`))));
    const now = this.clock().toISOString();
    const alive = new Set<string>();
    for (const row of rows) {
      const id = sessionIdOf(row.idHash);
      if (row.revokedAt) endings.set(id, SESSION_ENDED.revoked);
      else if (row.expiresAt <= now) endings.set(id, SESSION_ENDED.expired);
      else alive.add(id);
    }
    // A row deleted (past its expiry, at someone's sign-in) ended too.
    for (const id of sessionIds) if (!alive.has(id) && !endings.has(id)) endings.set(id, SESSION_ENDED.expired);
    return endings;
  }

  /** Sign-out: the session is refused from now on, wherever the cookie is replayed. */
  async end(id: string): Promise<void> {
    const { signInSessions } = this.db.tables;
    await this.db.orm
      .update(signInSessions)
      .set({ revokedAt: this.clock().toISOString() })
      .where(and(eq(signInSessions.idHash, hashOf(id)), isNull(signInSessions.revokedAt)));
  }

  /** Every session still in the table (active, expired not yet cleared, signed out or revoked), newest first. */
  async list(): Promise<SignInSessionView[]> {
    const { signInSessions } = this.db.tables;
    const rows = await this.db.orm.select().from(signInSessions).orderBy(desc(signInSessions.createdAt), signInSessions.idHash);
    const now = this.clock().toISOString();
    return rows.map((row) => viewOf(row, now));
  }

  /**
   * An admin ends someone's session: the next request with its cookie is 401 on every instance (read per
   * request). 404 for an unknown id, 409 for one that has ended already (signed out, revoked or expired).
   */
  async revoke(sessionId: string): Promise<SignInSessionView> {
    const { signInSessions } = this.db.tables;
    const prefix = hashPrefixOf(sessionId);
    if (!prefix) throw new SignInSessionNotFoundError(sessionId);
    const now = this.clock().toISOString();
    // One statement decides it, so two admins revoking at once get one 200 and one 409.
    const [revoked] = await this.db.orm
      .update(signInSessions)
      .set({ revokedAt: now })
      .where(and(like(signInSessions.idHash, `${prefix}%`), isNull(signInSessions.revokedAt), gt(signInSessions.expiresAt, now)))
      .returning();
    if (revoked) return viewOf(revoked, now);
    const [row] = await this.db.orm
      .select()
      .from(signInSessions)
      .where(like(signInSessions.idHash, `${prefix}%`))
      .limit(1);
    if (!row) throw new SignInSessionNotFoundError(sessionId);
    throw new SignInSessionEndedError(viewOf(row, now));
  }
}

export function principalOfPerson(person: SignedInPerson, session?: { id: string; expiresAt: string }): Principal {
  const credential = session && { kind: 'sign_in_session' as const, id: session.id, expiresAt: session.expiresAt };
  return { kind: 'user', id: person.subject, name: person.name, role: person.role, via: 'cookie', ...(credential ? { credential } : {}) };
}

/** The admin API id of the session a cookie holds. */
export const sessionIdOfCookie = (id: string): string => sessionIdOf(hashOf(id));

const hashOf = (id: string): string => createHash('sha256').update(id, 'utf8').digest('hex');

/**
 * A session's id in the admin API: the first 128 bits of the hash the table keeps, written as a UUID.
 * The hash is one-way, so the id names the session without letting anyone rebuild its cookie, and
 * existing rows need no new column.
 */
export function sessionIdOf(idHash: string): string {
  const h = idHash.slice(0, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The hash prefix an admin API id stands for; undefined when it is not one (then no session has it). */
function hashPrefixOf(sessionId: string): string | undefined {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sessionId) ? sessionId.replace(/-/g, '').toLowerCase() : undefined;
}

function viewOf(
  row: { idHash: string; subject: string; name: string; role: string; createdAt: string; expiresAt: string; revokedAt: string | null },
  now: string,
): SignInSessionView {
  return {
    id: sessionIdOf(row.idHash),
    subject: row.subject,
    name: row.name,
    role: ROLES.find((r) => r === row.role) ?? 'viewer',
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    state: row.revokedAt ? 'revoked' : row.expiresAt <= now ? 'expired' : 'active',
  };
}
