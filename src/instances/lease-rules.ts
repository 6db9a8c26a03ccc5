import type { Dialect } from '../database';

/**
 * The pure rules of the instance lease: when a lease expires, which instances are live or dead, who
 * holds a session, and what an instance's address is. No clock and no database here: callers pass `now`.
 */

/** A row of `instance_leases`. */
export interface Lease {
  instanceId: string;
  address: string;
  pid: number;
  hostname: string;
  startedAt: string;
  heartbeatAt: string;
  expiresAt: string;
}

/** Who asks, on which database, when. */
export interface LeaseView {
  self: string;
  dialect: Dialect;
  now: Date;
}

/** The expiry a heartbeat at `now` writes. ISO 8601 from `toISOString` is fixed width, so it also compares as text. */
export function leaseExpiry(now: Date, ttlMs: number): string {
  return new Date(now.getTime() + ttlMs).toISOString();
}

/**
 * Whether the lease's instance is running. Our own always is. On SQLite there is one instance by
 * construction (one process holds the file), so any other row is a previous incarnation, dead even
 * before it expires; on PostgreSQL a lease is live until its expiry.
 */
export function isLive(lease: Pick<Lease, 'instanceId' | 'expiresAt'>, view: LeaseView): boolean {
  if (lease.instanceId === view.self) return true;
  if (view.dialect === 'sqlite') return false;
  return Date.parse(lease.expiresAt) >= view.now.getTime();
}

/** The leases another instance may claim now: every one that is not live. */
export function deadLeases<L extends Pick<Lease, 'instanceId' | 'expiresAt'>>(leases: readonly L[], view: LeaseView): L[] {
  return leases.filter((lease) => !isLive(lease, view));
}

/**
 * The bound the claiming `DELETE ... WHERE expires_at < ?` checks again in the database, so a lease
 * renewed since it was read is not claimed. Undefined on SQLite: every other row is dead at once.
 */
export function claimableBefore(view: LeaseView): string | undefined {
  return view.dialect === 'sqlite' ? undefined : view.now.toISOString();
}

/** This instance's own heartbeats as the database answered them: failing now, or back since when after failing. */
export interface HeartbeatStanding {
  failing: boolean;
  /** When a heartbeat went through again after failures; undefined if none ever failed. */
  backSince?: Date;
}

/**
 * Whether this instance may judge other leases dead now. Not while its own heartbeats fail, nor
 * within a TTL of them coming back: a database outage stops every instance's heartbeat, so every
 * lease looks expired when it ends, and the instances alive all along need a beat to renew theirs
 * (a TTL holds more than two beats). A lease still expired a TTL later belongs to one that died.
 */
export function mayClaimLeases(standing: HeartbeatStanding, now: Date, leaseTtlMs: number): boolean {
  if (standing.failing) return false;
  return standing.backSince === undefined || now.getTime() - standing.backSince.getTime() >= leaseTtlMs;
}

/** Where a session (or a run, through its session) is held, from its `owner_instance` and that instance's lease. */
export type Holder =
  /** Taken live by this instance. */
  | { kind: 'here' }
  /** Another instance is running and holds it: requests for it go there. */
  | { kind: 'elsewhere'; instanceId: string; address: string }
  /** Nobody holds it: no owner recorded, or its instance is gone (lease expired or deleted). Any instance may take it. */
  | { kind: 'free'; instanceId: string | null };

export function holderOf(
  ownerInstance: string | null,
  ownerLease: Pick<Lease, 'instanceId' | 'expiresAt' | 'address'> | undefined,
  view: LeaseView,
): Holder {
  if (ownerInstance === view.self) return { kind: 'here' };
  if (ownerInstance && ownerLease && ownerLease.instanceId === ownerInstance && isLive(ownerLease, view)) {
    return { kind: 'elsewhere', instanceId: ownerInstance, address: ownerLease.address };
  }
  return { kind: 'free', instanceId: ownerInstance };
}

/**
 * Whether a running run with no session yet was left so by its instance, not being launched by a
 * running one (its session is created right after `run.started`): on SQLite always (one instance), on
 * PostgreSQL once it was launched a lease TTL ago.
 */
export function launchSettled(launchedAt: string, view: LeaseView, leaseTtlMs: number): boolean {
  return view.dialect === 'sqlite' || Date.parse(launchedAt) + leaseTtlMs < view.now.getTime();
}

/** How clients reach an instance: SWITCHBOARD_PUBLIC_URL, else http://<host>:<port> (the machine's name for a wildcard HOST). */
export function instanceAddress(publicUrl: string | undefined, host: string, port: number, hostname: string): string {
  if (publicUrl) return publicUrl;
  const reachable = host === '0.0.0.0' || host === '::' || host === '' ? hostname : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Why a taken-over session or run is interrupted: names the instance and when it was last seen. A
 * lease released by a graceful stop has its expiry at its last heartbeat.
 */
export function takeoverReason(lease: Pick<Lease, 'instanceId' | 'heartbeatAt' | 'expiresAt'>, what: 'session' | 'run'): string {
  const how = lease.expiresAt === lease.heartbeatAt ? 'stopped' : 'stopped heart-beating';
  return `instance ${lease.instanceId} ${how} at ${lease.heartbeatAt}; resume the ${what} on any instance`;
}
