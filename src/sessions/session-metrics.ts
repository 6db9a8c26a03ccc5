import { Gauge, type Registry } from 'prom-client';
import { type MetricsContribution, ProvidesMetrics, setGaugeByStatus } from '../common';
import type { SessionStatus } from './session.events';
import { SessionsReadModel } from './sessions-read-model';

const SESSION_STATUSES = ['starting', 'active', 'running', 'idle', 'interrupted', 'failed', 'destroyed'] as const satisfies readonly SessionStatus[];

/** Sessions by status, read from the `sessions` read model at each scrape. */
@ProvidesMetrics()
export class SessionMetrics implements MetricsContribution {
  constructor(private readonly sessions: SessionsReadModel) {}

  registerMetrics(registry: Registry): void {
    const sessions = this.sessions;
    new Gauge({
      name: 'switchboard_sessions',
      help: 'Sessions by status (sessions read model)',
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        setGaugeByStatus(this, SESSION_STATUSES, await sessions.countByStatus());
      },
    });
  }
}
