import { column, table } from '../table-description';

/**
 * Operational state, not a read model (issue 27): one row per person signed in to the console through
 * OpenID Connect, written by `SignInSessions`. The browser holds the session id in an HttpOnly cookie;
 * only its SHA-256 is kept, so a copy of the database signs nobody in. Timestamps are ISO 8601 text.
 */
export const signInSessions = table('sign_in_sessions', {
  /** SHA-256 (hex) of the cookie's session id. */
  idHash: column.text().primaryKey(),
  /** `<issuer>#<sub>`: the principal's id. */
  subject: column.text().notNull(),
  name: column.text().notNull(),
  role: column.text().notNull(),
  createdAt: column.text().notNull(),
  expiresAt: column.text().notNull(),
  /** Set by sign-out (or an admin's revocation): the cookie is refused from then on. */
  revokedAt: column.text(),
});
