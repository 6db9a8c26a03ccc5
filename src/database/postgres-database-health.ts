import * as path from 'node:path';
import type { Pool } from 'pg';
import { type DatabaseCheck, DatabaseHealth, migrationsCheck } from './database-health';
import { defaultMigrationsFolder } from './migrations';

/** A probe that waits longer than this (every connection busy, a network partition) counts as failing. */
const PROBE_TIMEOUT_MS = 2_000;

/** Where the pool connects, for humans: host, port, database and user; never the password. */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  user: string | undefined;
}

/** The parts of a postgres:// URL an operator needs to know which server it is. */
export function postgresTarget(url: string): PostgresTarget {
  const parsed = new URL(url);
  return {
    host: parsed.hostname || (parsed.searchParams.get('host') ?? ''),
    port: Number(parsed.port || 5432),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username),
    user: parsed.username ? decodeURIComponent(parsed.username) : undefined,
  };
}

/** The PostgreSQL server: where it is, the pool's size and use, the migrations applied; writable = a primary that answers. */
export class PostgresDatabaseHealth extends DatabaseHealth {
  private readonly target: PostgresTarget;

  constructor(
    private readonly pool: Pool,
    url: string,
    private readonly poolSize: number,
    private readonly migrationsFolder = path.join(defaultMigrationsFolder(), 'postgres'),
  ) {
    super();
    this.target = postgresTarget(url);
  }

  async describe(): Promise<Record<string, unknown>> {
    const { rows } = await this.probe<{ version: string; migrations: number }>(
      `SELECT current_setting('server_version') AS version, (SELECT count(*) FROM drizzle.__drizzle_migrations) AS migrations`,
    );
    return {
      dialect: 'postgres',
      ...this.target,
      serverVersion: rows[0].version,
      poolSize: this.poolSize,
      // node-postgres's own counts: open connections, idle ones, callers waiting for one.
      connections: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount },
      migrationsApplied: Number(rows[0].migrations),
    };
  }

  async check(): Promise<{ database: DatabaseCheck; migrations: DatabaseCheck }> {
    return {
      database: await this.writable(),
      migrations: await migrationsCheck(this.migrationsFolder, async () => {
        const { rows } = await this.probe<{ at: string | number }>('SELECT created_at AS at FROM drizzle.__drizzle_migrations');
        return rows.map((row) => Number(row.at));
      }),
    };
  }

  /** A standby (or a read-only default) answers but takes no writes. */
  private async writable(): Promise<DatabaseCheck> {
    const where = `${this.target.host}:${this.target.port}/${this.target.database}`;
    try {
      const { rows } = await this.probe<{ standby: boolean; readOnly: string }>(
        `SELECT pg_is_in_recovery() AS standby, current_setting('default_transaction_read_only') AS "readOnly"`,
      );
      if (rows[0].standby) return { ok: false, reason: `the PostgreSQL server at ${where} is a standby: it takes no writes` };
      if (rows[0].readOnly === 'on') return { ok: false, reason: `the PostgreSQL database ${where} is read-only (default_transaction_read_only)` };
      return { ok: true, connections: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount } };
    } catch (error) {
      return { ok: false, reason: `the PostgreSQL database ${where} does not answer: ${(error as Error).message}` };
    }
  }

  /** A query that gives up after PROBE_TIMEOUT_MS (the pool may be exhausted or the server gone). */
  private async probe<Row extends object>(sql: string): Promise<{ rows: Row[] }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([this.pool.query<Row>(sql), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
