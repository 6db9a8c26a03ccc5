import { useMemo, useState, type FormEvent } from 'react';
import { request } from '../api/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { usePolling } from '../api/hooks';
import { Link } from 'react-router';
import { Icon } from '../ui/icons';
import { ErrorNote } from '../ui/ErrorNote';
import { Pager, useCursorPages } from '../ui/Pager';
import { FilterActions } from '../ui/FilterActions';
import { PageHead } from '../ui/PageHead';
import { RunListQuery } from './operations';
import { formatDuration } from './run-tree';
import { spendCostText } from '../model-calls';
import { RUN_STATUSES, type RunFilterFields, replayMarkOf, runFilterOf, runStatusTone, startedByText } from './run-list';
import { oneLine } from './timeline';
import { Options } from '../ui/Options';
import { ColumnHeads } from '../ui/ColumnHeads';

export const RUNS_PAGE_SIZE = 50;
/**
 * No subscription reports status changes across all runs (runEvents follows one tree): the list asks
 * again this often while the tab is visible, one page of at most 50 runs, as the sessions list does.
 */
const POLL_MS = 3000;

export function RunsPage() {
  const [draft, setDraft] = useState<RunFilterFields>(() => ({ rootRunId: new URLSearchParams(location.search).get('root') ?? '' }));
  const [fields, setFields] = useState<RunFilterFields>(draft);
  const pages = useCursorPages();
  const [now, setNow] = useState(() => Date.now());
  const filter = useMemo(() => runFilterOf(fields), [fields]);
  const { after } = pages;

  const page = useQuery({
    queryKey: ['runs', filter, after],
    queryFn: () => request(RunListQuery, { filter, first: RUNS_PAGE_SIZE, after }),
    placeholderData: keepPreviousData,
  });
  usePolling(() => {
    void page.refetch();
    setNow(Date.now());
  }, POLL_MS);

  const edges = page.data?.runs.edges ?? [];
  const pageInfo = page.data?.runs.pageInfo;
  const agents = useMemo(() => new Map((page.data?.agents ?? []).map((a) => [a.id, a])), [page.data]);
  const filtered = Object.keys(filter).length > 0;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFields(draft);
    pages.restart();
  };
  const clear = () => {
    setDraft({});
    setFields({});
    pages.restart();
  };
  const set = (name: keyof RunFilterFields) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [name]: e.target.value }));
  const agentLabel = (id: string) => {
    const agent = agents.get(id);
    // The agent's own icon is often an emoji, which a machine without an emoji font draws as a box.
    return agent ? agent.name : id;
  };

  return (
    <section className="page" aria-labelledby="runs-title">
      <PageHead titleId="runs-title" title="Runs">
        Every delegation run, newest first: which agent ran what task, who started it, under which run, and what it cost. Statuses follow the service as
        they change.
      </PageHead>
      <form className="audit-filters run-filters" onSubmit={apply} aria-label="Run filters">
        <div className="field">
          <label htmlFor="runs-status">Status</label>
          <select id="runs-status" value={draft.status ?? ''} onChange={set('status')}>
            <option value="">Any</option>
            <Options values={RUN_STATUSES} />
          </select>
        </div>
        <div className="field">
          <label htmlFor="runs-agent">Agent</label>
          <select id="runs-agent" value={draft.agentId ?? ''} onChange={set('agentId')}>
            <option value="">Any</option>
            {[...agents.values()].map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.id})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="runs-root">Root run</label>
          <input id="runs-root" value={draft.rootRunId ?? ''} onChange={set('rootRunId')} placeholder="a run id" />
        </div>
        <div className="field">
          <label htmlFor="runs-from">Started from</label>
          <input id="runs-from" type="datetime-local" value={draft.startedFrom ?? ''} onChange={set('startedFrom')} />
        </div>
        <div className="field">
          <label htmlFor="runs-to">Started before</label>
          <input id="runs-to" type="datetime-local" value={draft.startedTo ?? ''} onChange={set('startedTo')} />
        </div>
        <FilterActions onClear={clear} />
      </form>
      <ErrorNote error={page.error} title="The runs could not be loaded" />
      <p className="result-count" role="status">
        {page.data
          ? `Page ${pages.pageNumber}: ${edges.length} run${edges.length === 1 ? '' : 's'}${filtered ? ' matching the filters' : ''}`
          : 'Loading…'}
      </p>
      {page.data && edges.length === 0 ? (
        <div className="empty">
          <h2>No runs</h2>
          <p className="muted">
            {filtered ? 'No run matches these filters.' : 'A run starts when an agent in a chat hands a task to another agent of its team.'}
          </p>
        </div>
      ) : (
        <div className="table-scroll">
          <table className="data-table run-table">
            <caption className="visually-hidden">Runs, newest first</caption>
            <ColumnHeads
              names={['Agent', 'Task', 'Started by', 'Status', 'Cost (subtree)', 'Place in its tree', 'Started', 'Duration', 'Tokens (own / subtree)']}
            />
            <tbody>
              {edges.map(({ node }) => {
                const mark = replayMarkOf(node);
                const spend = node.modelCallSpend;
                return (
                  <tr key={node.runId} data-run={node.runId}>
                    <td>
                      <Link to={`/runs/${node.runId}`} title={node.runId} aria-label={`${agentLabel(node.agentId)}, run ${node.runId}`}>
                        <Icon name="agent" /> {agentLabel(node.agentId)}
                      </Link>
                      <div className="muted small">{node.background ? 'in the background' : 'caller waited'}</div>
                    </td>
                    <td className="run-task" title={node.prompt}>
                      {mark && (
                        <>
                          {mark.of ? (
                            <Link className="badge status-over" to={`/runs/${mark.of}`} aria-label={`a ${mark.kind} of run ${mark.of}`}>
                              {mark.kind}
                            </Link>
                          ) : (
                            <span className="badge status-over" title={`Part of a ${mark.kind}, with no original run: it went live`}>
                              {mark.kind}
                            </span>
                          )}{' '}
                        </>
                      )}
                      {oneLine(node.prompt, 80)}
                    </td>
                    <td data-testid="run-started-by">{startedByText(node)}</td>
                    <td>
                      <span className={`badge status-${runStatusTone(node.status)}`}>{node.status}</span>
                    </td>
                    <td data-testid="run-list-cost">{spend.calls > 0 ? spendCostText(spend) : '–'}</td>
                    <td className="small">
                      {node.parentRunId ? (
                        <>
                          {node.depth} {node.depth === 1 ? 'level' : 'levels'} down in{' '}
                          <Link to={`/runs/${node.rootRunId}`} aria-label={`this tree, of run ${node.rootRunId}`}>
                            this tree
                          </Link>
                        </>
                      ) : (
                        'top of its tree'
                      )}
                    </td>
                    <td>
                      <time dateTime={node.startedAt}>{new Date(node.startedAt).toLocaleString()}</time>
                    </td>
                    <td>{formatDuration(Math.max(0, (node.endedAt ? Date.parse(node.endedAt) : now) - Date.parse(node.startedAt)))}</td>
                    <td>
                      {node.usage.own.totalTokens} / {node.usage.subtree.totalTokens}
                      {node.usage.subtree.runs > 1 && <span className="muted small"> ({node.usage.subtree.runs} runs)</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Run pages" pages={pages} pageInfo={pageInfo} fetching={page.isFetching} />
    </section>
  );
}
