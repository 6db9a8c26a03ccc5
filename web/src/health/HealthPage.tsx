import { useQuery } from '@tanstack/react-query';
import { type ReactNode } from 'react';
import { ErrorNote } from '../ui/ErrorNote';
import { PageHead } from '../ui/PageHead';
import { Icon } from '../ui/icons';
import { type CheckName, loadHealth, type ProviderCheck } from './health-api';
import { ColumnHeads } from '../ui/ColumnHeads';

/** How often the page asks again: often enough to watch a projection catch up. */
export const HEALTH_REFRESH_MS = 3000;

const TITLES: Record<CheckName, string> = {
  database: 'Database',
  migrations: 'Migrations',
  projections: 'Projections',
  copilotCli: 'Copilot CLI',
  provider: 'Model provider',
};

export function HealthPage() {
  const health = useQuery({ queryKey: ['health'], queryFn: loadHealth, refetchInterval: HEALTH_REFRESH_MS, refetchIntervalInBackground: true });

  const data = health.data;
  const checks = data?.readiness.checks;
  const cli = data?.detail.copilotCli;
  const database = data?.detail.database;
  const provider = checks?.provider as ProviderCheck | undefined;

  const details: Record<CheckName, ReactNode> = {
    database: database && (
      <dl className="facts">
        <Fact term="File" value={database.file} mono />
        <Fact term="Journal" value={database.journalMode} />
        <Fact term="Synchronous" value={database.synchronous} />
        <Fact term="Events in the log" value={database.headPosition} />
      </dl>
    ),
    migrations: checks?.migrations.ok && (
      <dl className="facts">
        <Fact term="Applied" value={checks.migrations.applied as number | undefined} />
      </dl>
    ),
    projections: data?.detail.projections && (
      <table className="data-table">
        <caption className="visually-hidden">Async projections</caption>
        <ColumnHeads names={['Projection', 'State', 'Position', 'Lag (events)']} />
        <tbody>
          {data.detail.projections.map((p) => (
            <tr key={p.name}>
              <th scope="row" className="mono">
                {p.name}
              </th>
              <td>
                <span className={`state state-${p.state}`}>{p.state}</span>
                {p.lastError && <div className="problem-text">{p.lastError}</div>}
              </td>
              <td>{p.position}</td>
              <td>{p.lag}</td>
            </tr>
          ))}
        </tbody>
      </table>
    ),
    copilotCli: cli && (
      <dl className="facts">
        <Fact term="Running" value={cli.running ? `yes${cli.pid ? ` (pid ${cli.pid})` : ''}` : 'no (starts with the first session)'} />
        <Fact term="Transport" value={cli.transport} />
        <Fact term="Version" value={cli.version} />
        <Fact term="Exits in the last minute" value={cli.exitsLastMinute} />
      </dl>
    ),
    provider: provider?.kind && (
      <dl className="facts">
        <Fact term="Configured" value={provider.kind === 'provider' ? `provider (${String(provider.type)})` : 'GitHub token'} />
        <Fact term="Answering" value={answeringText(provider)} />
        <Fact term="Endpoint" value={provider.endpoint} mono />
        <Fact
          term="Last answered"
          value={
            provider.lastAnsweredAt ? new Date(provider.lastAnsweredAt).toLocaleString() : provider.endpoint ? 'not since the service started' : undefined
          }
        />
        <Fact term="Last checked" value={provider.checkedAt && new Date(provider.checkedAt).toLocaleTimeString()} />
      </dl>
    ),
  };

  return (
    <section className="page" aria-labelledby="health-title">
      <PageHead titleId="health-title" title="Health">
        What <code>/health</code> and <code>/health/ready</code> answer, refreshed every {HEALTH_REFRESH_MS / 1000} seconds.
      </PageHead>
      <ErrorNote error={health.error} title="Cannot read the service's health" />
      {data && (
        <>
          <p role="status" className={`readiness ${readinessTone(data.readiness)}`}>
            {data.readiness.status !== 'ready'
              ? `Not ready: ${data.readiness.failing.length} failing check${data.readiness.failing.length === 1 ? '' : 's'}.`
              : (data.readiness.degraded ?? []).length > 0
                ? `Ready, but degraded: ${data.readiness.degraded.map((d) => TITLES[d.check]).join(', ')} failing; work that needs it will fail.`
                : 'Ready: the service can take work.'}{' '}
            <span className="muted">Checked at {data.at.toLocaleTimeString()}.</span>
          </p>
          <ul className="health-checks">
            {(Object.keys(TITLES) as CheckName[]).map((name) => {
              const check = checks?.[name];
              if (!check) return null;
              return (
                <li key={name} className={`health-check ${check.ok ? 'ok' : 'failing'}`} aria-labelledby={`check-${name}`}>
                  <h2 id={`check-${name}`}>
                    <Icon name={check.ok ? 'approve' : 'deny'} /> {TITLES[name]}
                    <span className="check-state">{check.ok ? 'OK' : 'Failing'}</span>
                  </h2>
                  {!check.ok && <p className="check-reason">{check.reason ?? 'failing'}</p>}
                  {details[name]}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}

function readinessTone(readiness: { status: string; degraded?: unknown[] }): 'ready' | 'degraded' | 'not-ready' {
  if (readiness.status !== 'ready') return 'not-ready';
  return (readiness.degraded ?? []).length > 0 ? 'degraded' : 'ready';
}

function answeringText(provider: ProviderCheck): string | undefined {
  if (provider.answering === null) return 'not checked (the CLI signs in to GitHub itself)';
  if (provider.answering === undefined) return undefined;
  return provider.answering ? `yes${provider.latencyMs !== undefined ? ` (${provider.latencyMs} ms)` : ''}` : 'no';
}

function Fact({ term, value, mono }: { term: string; value: string | number | undefined; mono?: boolean }) {
  if (value === undefined) return null;
  return (
    <>
      <dt>{term}</dt>
      <dd className={mono ? 'mono' : undefined}>{value}</dd>
    </>
  );
}
