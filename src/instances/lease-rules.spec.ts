import {
  claimableBefore,
  deadLeases,
  holderOf,
  instanceAddress,
  isLive,
  launchSettled,
  type Lease,
  leaseExpiry,
  type LeaseView,
  mayClaimLeases,
  takeoverReason,
} from './lease-rules';

const NOW = new Date('2030-01-02T03:04:05.000Z');
const pg = (self = 'me'): LeaseView => ({ self, dialect: 'postgres', now: NOW });
const sqlite = (self = 'me'): LeaseView => ({ self, dialect: 'sqlite', now: NOW });

function lease(instanceId: string, expiresInMs: number, extra: Partial<Lease> = {}): Lease {
  return {
    instanceId,
    address: `http://${instanceId}:3000`,
    pid: 1,
    hostname: instanceId,
    startedAt: '2030-01-01T00:00:00.000Z',
    heartbeatAt: new Date(NOW.getTime() + expiresInMs - 10_000).toISOString(),
    expiresAt: new Date(NOW.getTime() + expiresInMs).toISOString(),
    ...extra,
  };
}

describe('lease expiry', () => {
  it('expires a TTL after the heartbeat, as fixed-width ISO text that orders like the instants', () => {
    expect(leaseExpiry(NOW, 10_000)).toBe('2030-01-02T03:04:15.000Z');
    const expiries = [999, 1_000, 59_001, 3_600_000].map((ttl) => leaseExpiry(NOW, ttl));
    expect([...expiries].sort()).toEqual(expiries);
    expect(new Set(expiries.map((e) => e.length)).size).toBe(1);
  });
});

describe('who is live, who is dead', () => {
  it('on PostgreSQL: live until the expiry (inclusive), dead after it', () => {
    expect(isLive(lease('a', 1), pg())).toBe(true);
    expect(isLive(lease('a', 0), pg())).toBe(true);
    expect(isLive(lease('a', -1), pg())).toBe(false);
  });

  it('this instance is always live, even past its own expiry (a heartbeat late under load)', () => {
    expect(isLive(lease('me', -60_000), pg())).toBe(true);
    expect(isLive(lease('me', -60_000), sqlite())).toBe(true);
  });

  it('on SQLite every other row is a previous incarnation: dead at once, expired or not', () => {
    expect(isLive(lease('previous', 9_000), sqlite())).toBe(false);
    expect(deadLeases([lease('me', 10_000), lease('previous', 9_000), lease('older', -5)], sqlite()).map((l) => l.instanceId)).toEqual([
      'previous',
      'older',
    ]);
  });

  it('on PostgreSQL the dead are the expired others', () => {
    const leases = [lease('me', -1), lease('b', 5_000), lease('c', -1), lease('d', 0)];
    expect(deadLeases(leases, pg()).map((l) => l.instanceId)).toEqual(['c']);
  });

  it('the claim checks the expiry again in the database on PostgreSQL, nothing on SQLite', () => {
    expect(claimableBefore(pg())).toBe(NOW.toISOString());
    expect(claimableBefore(sqlite())).toBeUndefined();
  });
});

describe('who holds a session', () => {
  it('this instance, when it took it live', () => {
    expect(holderOf('me', undefined, pg())).toEqual({ kind: 'here' });
  });

  it('another instance while its lease is live, with its address', () => {
    expect(holderOf('b', lease('b', 1_000), pg())).toEqual({ kind: 'elsewhere', instanceId: 'b', address: 'http://b:3000' });
  });

  it('nobody when the owner is gone (expired or no row), unrecorded, or on SQLite', () => {
    expect(holderOf('b', lease('b', -1), pg())).toEqual({ kind: 'free', instanceId: 'b' });
    expect(holderOf('b', undefined, pg())).toEqual({ kind: 'free', instanceId: 'b' });
    expect(holderOf(null, undefined, pg())).toEqual({ kind: 'free', instanceId: null });
    expect(holderOf('b', lease('b', 1_000), sqlite())).toEqual({ kind: 'free', instanceId: 'b' });
  });

  it("never trusts another instance's lease for the owner", () => {
    expect(holderOf('b', lease('c', 1_000), pg())).toEqual({ kind: 'free', instanceId: 'b' });
  });
});

describe('a running run without a session', () => {
  it("is another instance's launch in progress on PostgreSQL until it is a TTL old", () => {
    expect(launchSettled(new Date(NOW.getTime() - 9_999).toISOString(), pg(), 10_000)).toBe(false);
    expect(launchSettled(new Date(NOW.getTime() - 10_001).toISOString(), pg(), 10_000)).toBe(true);
  });

  it('is always left over on SQLite, where no other instance runs', () => {
    expect(launchSettled(NOW.toISOString(), sqlite(), 10_000)).toBe(true);
  });
});

describe('instance address', () => {
  it('is SWITCHBOARD_PUBLIC_URL when set', () => {
    expect(instanceAddress('https://sb.example.com', '0.0.0.0', 3000, 'box')).toBe('https://sb.example.com');
  });

  it('is http://<host>:<port> otherwise, the machine name for a wildcard host, brackets for IPv6', () => {
    expect(instanceAddress(undefined, '127.0.0.1', 3000, 'box')).toBe('http://127.0.0.1:3000');
    expect(instanceAddress(undefined, '0.0.0.0', 8080, 'box')).toBe('http://box:8080');
    expect(instanceAddress(undefined, '::', 8080, 'box')).toBe('http://box:8080');
    expect(instanceAddress(undefined, '::1', 8080, 'box')).toBe('http://[::1]:8080');
  });
});

describe('takeover reason', () => {
  it('names the instance and its last heartbeat', () => {
    expect(takeoverReason({ instanceId: 'b', heartbeatAt: '2030-01-02T03:00:00.000Z', expiresAt: '2030-01-02T03:00:10.000Z' }, 'session')).toBe(
      'instance b stopped heart-beating at 2030-01-02T03:00:00.000Z; resume the session on any instance',
    );
  });

  it('says stopped for a lease released by a graceful stop (expiry at its last heartbeat)', () => {
    expect(takeoverReason({ instanceId: 'b', heartbeatAt: '2030-01-02T03:00:00.000Z', expiresAt: '2030-01-02T03:00:00.000Z' }, 'run')).toBe(
      'instance b stopped at 2030-01-02T03:00:00.000Z; resume the run on any instance',
    );
  });
});

describe('claiming after a database outage', () => {
  const TTL = 10_000;
  const ago = (ms: number) => new Date(NOW.getTime() - ms);

  it('claims as usual when its own heartbeats never failed', () => {
    expect(mayClaimLeases({ failing: false }, NOW, TTL)).toBe(true);
  });

  it('claims nothing while its own heartbeats fail: the database is away for everyone', () => {
    expect(mayClaimLeases({ failing: true }, NOW, TTL)).toBe(false);
    expect(mayClaimLeases({ failing: true, backSince: ago(60_000) }, NOW, TTL)).toBe(false);
  });

  it('waits a TTL after its heartbeats go through again, so the live instances renew their leases first', () => {
    expect(mayClaimLeases({ failing: false, backSince: ago(0) }, NOW, TTL)).toBe(false);
    expect(mayClaimLeases({ failing: false, backSince: ago(TTL - 1) }, NOW, TTL)).toBe(false);
    expect(mayClaimLeases({ failing: false, backSince: ago(TTL) }, NOW, TTL)).toBe(true);
  });
});
