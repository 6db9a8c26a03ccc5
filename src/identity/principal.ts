import { Contributes } from '../common';

/**
 * issue 27: who is calling, as every transport (REST, GraphQL over HTTP and graphql-ws, SSE) sees it
 * once authenticated. The policy table decides what a role may do; commands record the principal as
 * their actor.
 */
export type Role = 'viewer' | 'operator' | 'approver' | 'admin';
export const ROLES: readonly Role[] = ['viewer', 'operator', 'approver', 'admin'];

/**
 * What an operation needs (the policy table, `access-policy.ts`, names one per operation): `read`
 * everything; `operate` sessions and runs (start, message, steer, pause, stop, resume, replay, fork,
 * destroy, budgets); `approve` approvals and the questions agents ask; `administer` the agent library,
 * the MCP registry, keys, sign-in sessions and settings.
 */
export type Permission = 'read' | 'operate' | 'approve' | 'administer';
export const PERMISSIONS: readonly Permission[] = ['read', 'operate', 'approve', 'administer'];

/** Operator and approver are siblings: an operator cannot decide approvals, an approver cannot start runs. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  viewer: ['read'],
  operator: ['read', 'operate'],
  approver: ['read', 'approve'],
  admin: ['read', 'operate', 'approve', 'administer'],
};

export function roleMay(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export interface Principal {
  /**
   * `user`: a person signed in through OpenID Connect; `key`: a named API key; `operator`: the bootstrap
   * `SWITCHBOARD_API_TOKEN`; `local`: nobody configured any credential and the service listens on loopback
   * only (today's one-person start: a single local admin).
   */
  kind: 'user' | 'key' | 'operator' | 'local';
  /** Stable id: the OIDC subject (`<issuer>#<sub>`), the key's id, `operator`, `local`. */
  id: string;
  /** What people read: the person's name or e-mail, the key's name, "operator", "local admin". */
  name: string;
  role: Role;
  /** How the request proved it: a cookie-authenticated request must pass the Origin check on every route. */
  via: 'cookie' | 'bearer' | 'none';
  /**
   * The credential that can end while the caller holds a stream open (issue 39): a named key or a
   * sign-in session, revoked or expired. The bootstrap token and the open local API have none: they
   * end with a restart. Never shown (`me` leaves it out).
   */
  credential?: Credential;
}

/** A named key (`id`: the key's id) or a person's sign-in session (`id`: the session's id as the admin API names it). */
export interface Credential {
  kind: 'api_key' | 'sign_in_session';
  id: string;
  /** ISO time; absent: it does not expire. */
  expiresAt?: string;
}

/** Why a credential's open streams were closed: said in the SSE stream's last event and the WebSocket's close reason. */
export interface CredentialEnding {
  code: 'credential_revoked' | 'credential_expired';
  message: string;
}

/** The request property (REST, SSE) and GraphQL context property the authenticated principal is put on. */
export const PRINCIPAL_PROPERTY = 'principal';

/** What an authenticator reads a principal from: the request's headers (cookies included). */
export interface CredentialCarrier {
  headers: Record<string, string | string[] | undefined>;
}

/**
 * The slot (`@ProvidesAuthenticator()`) through which other parts add a way to sign in: the OIDC
 * sign-in's cookie sessions. The guard asks each in turn after the bearer credentials; the first
 * principal wins. `undefined`: this authenticator does not know the request; throw an
 * UnauthorizedException for a credential it owns that is wrong, expired or revoked.
 */
export const AUTHENTICATORS = 'switchboard:authenticator';

export function ProvidesAuthenticator(): ClassDecorator {
  return Contributes(AUTHENTICATORS);
}

export interface Authenticator {
  /**
   * False while this sign-in method is present but not set up (no issuer configured, say): it then does
   * not close today's open loopback API. Absent means set up.
   */
  readonly configured?: boolean;
  principalOf(request: CredentialCarrier): Promise<Principal | undefined>;
  /** The kind of credential this method's principals carry, when it can end (asked about open streams). */
  readonly credentialKind?: Credential['kind'];
  /** Of these credentials (ids of `credentialKind`), the ones that have ended since (revoked, signed out, expired), with why. */
  endingsOf?(ids: readonly string[]): Promise<Map<string, CredentialEnding>>;
}
