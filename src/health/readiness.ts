import { Inject, Injectable } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { cliStartProblem } from '../copilot-cli/cli-startability';
import { CopilotCliConnection } from '../copilot-cli/copilot-cli-connection';
import { defaultMigrationsFolder } from '../database/migrations';
import { SqliteDatabase } from '../database/sqlite-database';
import { AsyncProjectionRunner, type AsyncProjectionStatus } from '../projections/async-projection-runner';

/** The write lock must be free within this; the writer's own busy timeout (seconds) would stall the probe. */
const LOCK_PROBE_TIMEOUT_MS = 100;
/** Below this much free space on the database's disk the next commit may fail with SQLITE_FULL. */
const MIN_FREE_BYTES = 1024 * 1024;
/** This many unexpected CLI exits within a minute is a crash loop, not a restart. */
const CRASH_LOOP_EXITS = 3;

export type ReadinessCheckName = 'database' | 'migrations' | 'projections' | 'copilotCli' | 'provider';

export interface ReadinessCheck {
  ok: boolean;
  /** Why it fails, in words an operator acts on. */
  reason?: string;
  [detail: string]: unknown;
}

export interface ReadinessReport {
  ready: boolean;
  /** Each failing check with its reason; empty when ready. */
  failing: Array<{ check: ReadinessCheckName; reason: string }>;
  checks: Record<ReadinessCheckName, ReadinessCheck>;
}

/**
 * What /health/ready answers: the service can take work now. The database takes writes, every
 * migration is applied, async projections are caught up (within SWITCHBOARD_READY_MAX_PROJECTION_LAG)
 * and none is failing, the CLI can be started (or reached), and a model provider is configured.
 */
@Injectable()
export class Readiness {
  private readonly migrationsFolder: string;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly database: SqliteDatabase,
    private readonly runner: AsyncProjectionRunner,
    private readonly cli: CopilotCliConnection,
  ) {
    this.migrationsFolder = defaultMigrationsFolder();
  }

  async check(): Promise<ReadinessReport> {
    const checks: Record<ReadinessCheckName, ReadinessCheck> = {
      database: this.databaseCheck(),
      migrations: this.migrationsCheck(),
      projections: this.projectionsCheck(),
      copilotCli: await this.cliCheck(),
      provider: this.providerCheck(),
    };
    const failing = (Object.entries(checks) as Array<[ReadinessCheckName, ReadinessCheck]>)
      .filter(([, c]) => !c.ok)
      .map(([check, c]) => ({ check, reason: c.reason ?? 'failing' }));
    return { ready: failing.length === 0, failing, checks };
  }

  /** Takes the write lock and lets it go (BEGIN IMMEDIATE; ROLLBACK), and looks at the space left on its disk. */
  private databaseCheck(): ReadinessCheck {
    const { connection, file } = this.database;
    try {
      if (!connection.open) return { ok: false, reason: `the database ${file} is closed` };
      // Inside a transaction the writer is busy writing: that is writable enough.
      if (!connection.inTransaction) {
        const busyTimeout = connection.pragma('busy_timeout', { simple: true }) as number;
        connection.pragma(`busy_timeout = ${LOCK_PROBE_TIMEOUT_MS}`);
        try {
          connection.exec('BEGIN IMMEDIATE');
          connection.exec('ROLLBACK');
        } finally {
          connection.pragma(`busy_timeout = ${busyTimeout}`);
        }
      }
    } catch (error) {
      return { ok: false, reason: `the database ${file} does not take writes: ${(error as Error).message}` };
    }
    try {
      const disk = fs.statfsSync(path.dirname(path.resolve(file)));
      const freeBytes = disk.bavail * disk.bsize;
      if (freeBytes < MIN_FREE_BYTES) {
        return { ok: false, reason: `the disk holding ${file} is full (${freeBytes} bytes free)`, freeBytes };
      }
      return { ok: true, freeBytes };
    } catch {
      return { ok: true }; // no statfs here: the lock probe is all we know
    }
  }

  /** Every migration of the journal shipped with this build is recorded as applied. */
  private migrationsCheck(): ReadinessCheck {
    try {
      const journal = JSON.parse(fs.readFileSync(path.join(this.migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
        entries: Array<{ tag: string; when: number }>;
      };
      const applied = new Set(
        (this.database.connection.prepare('SELECT created_at AS at FROM __drizzle_migrations').all() as Array<{ at: number }>).map((r) => Number(r.at)),
      );
      const pending = journal.entries.filter((e) => !applied.has(e.when)).map((e) => e.tag);
      if (pending.length > 0) return { ok: false, reason: `migrations not applied: ${pending.join(', ')}`, pending };
      return { ok: true, applied: journal.entries.length };
    } catch (error) {
      return { ok: false, reason: `cannot tell which migrations are applied: ${(error as Error).message}` };
    }
  }

  private projectionsCheck(): ReadinessCheck {
    const bound = this.config.resilience.readyMaxProjectionLag;
    let projections: AsyncProjectionStatus[];
    try {
      projections = this.runner.status();
    } catch (error) {
      return { ok: false, reason: `cannot read the projections' positions: ${(error as Error).message}` };
    }
    const problems = projections.flatMap((p) => {
      if (p.state === 'failing') {
        return [
          `${p.name} is failing since ${p.failingSince} (${p.failedAttempts} attempts, next at ${p.nextRetryAt}), ${p.lag} events behind: ${p.lastError}`,
        ];
      }
      if (p.lag > bound) return [`${p.name} is ${p.lag} events behind the log (SWITCHBOARD_READY_MAX_PROJECTION_LAG=${bound})`];
      return [];
    });
    return problems.length > 0 ? { ok: false, reason: problems.join('; '), projections } : { ok: true, projections };
  }

  private async cliCheck(): Promise<ReadinessCheck> {
    const status = this.cli.status();
    if (status.exitsLastMinute >= CRASH_LOOP_EXITS) {
      return { ok: false, reason: `the Copilot CLI exited ${status.exitsLastMinute} times in the last minute (crash loop)`, ...status };
    }
    if (status.running) return { ok: true, ...status };
    if (status.lastStartFailure) return { ok: false, reason: `the Copilot CLI failed to start: ${status.lastStartFailure}`, ...status };
    // Not started yet (it starts with the first session): it could be.
    const problem = await cliStartProblem(this.config.cli);
    return problem ? { ok: false, reason: problem, ...status } : { ok: true, ...status };
  }

  private providerCheck(): ReadinessCheck {
    const { provider, githubToken } = this.config.cli;
    if (provider) return { ok: true, kind: 'provider', type: provider.type };
    if (githubToken) return { ok: true, kind: 'github-token' };
    return {
      ok: false,
      reason: 'no model provider is configured: set COPILOT_PROVIDER_BASE_URL (with COPILOT_PROVIDER_API_KEY) or COPILOT_GITHUB_TOKEN',
    };
  }
}
