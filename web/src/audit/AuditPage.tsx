import { Fragment, useState, type FormEvent } from 'react';
import { type ApiError, request } from '../api/client';
import { asApiError } from '../api/mutation';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EVENT_TYPES } from '../api/event-types.generated';
import { Link } from 'react-router';
import { useAgentNames } from '../agents';
import { SessionTitleLink } from '../sessions';
import { ErrorNote } from '../ui/ErrorNote';
import { Pager, useCursorPages } from '../ui/Pager';
import { FilterActions } from '../ui/FilterActions';
import { type AuditFilterFields, type AuditQueryFields, downloadAudit, type ExportFormat } from './audit-export';
import { AuditEventQuery, AuditLogQuery } from './operations';
import { Options } from '../ui/Options';
import { ColumnHeads } from '../ui/ColumnHeads';

export const AUDIT_PAGE_SIZE = 50;

const FIELDS: Array<{ name: keyof AuditFilterFields; label: string; hint?: string }> = [
  { name: 'actor', label: 'Actor', hint: "who did it: a key's or person's id, operator, api…" },
  { name: 'sessionId', label: 'Session' },
  { name: 'runId', label: 'Run' },
  { name: 'agentId', label: 'Agent' },
  { name: 'toolName', label: 'Tool' },
  { name: 'decision', label: 'Decision', hint: 'approved, denied, success, failure, answered…' },
];

/** The kinds of event (the type before its first dot) the log has, for the kind filter; `cli` is the CLI's own. */
export const EVENT_KINDS: readonly string[] = [...new Set([...Object.keys(EVENT_TYPES).map((type) => type.split('.')[0]), 'cli'])].sort();

/** How Switchboard's own decisions read, by the source the event names (its `actor`): a timeout, the policy… */
const SYSTEM_DECIDERS: Record<string, string> = {
  timeout: 'a timeout',
  policy: "the session's policy",
  'session-grant': 'an approval for the rest of the session',
  expired: 'its session ended',
};

/**
 * Who did it, in words (issue 39): a person by name (from the console, when it was), a key by its name,
 * an agent by its name; Switchboard's own decisions by what decided (a timeout, the session's policy).
 */
export function whoOf(entry: { actor?: string | null; actorKind: string; actorId: string; actorName: string }): string {
  if (entry.actorKind === 'system') return SYSTEM_DECIDERS[entry.actor ?? ''] ?? entry.actorName;
  if (entry.actorKind === 'key' && entry.actorId === 'api') return 'an API client';
  const name = entry.actorKind === 'key' ? `${entry.actorName} key` : entry.actorName;
  return entry.actor === 'console' ? `${name} (console)` : name;
}

/** Only the fields with a value: an empty box is no filter. */
function presentOnly(filter: AuditFilterFields): AuditFilterFields {
  return Object.fromEntries(
    Object.entries(filter)
      .filter(([, v]) => v && v.trim() !== '')
      .map(([k, v]) => [k, v.trim()]),
  );
}

export function AuditPage() {
  const [draft, setDraft] = useState<AuditFilterFields>({});
  const [filter, setFilter] = useState<AuditFilterFields>({});
  const pages = useCursorPages();
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const [kind, setKind] = useState('');
  const [showCli, setShowCli] = useState(false);
  const [newestFirst, setNewestFirst] = useState(true);
  // The kind, the CLI's events and the order apply at once: they are choices, not typed text.
  const query: AuditQueryFields = { ...filter, ...(kind ? { eventKind: kind } : {}), ...(showCli || kind === 'cli' ? {} : { hideCli: 'true' }) };
  const restart = () => {
    pages.restart();
    setExpanded(new Set());
  };
  const [exporting, setExporting] = useState<ExportFormat | undefined>();
  const [exportError, setExportError] = useState<ApiError | undefined>();
  const { after } = pages;

  const page = useQuery({
    queryKey: ['audit', query, newestFirst, after],
    queryFn: () =>
      request(AuditLogQuery, {
        filter: { ...filter, eventKind: query.eventKind, hideCli: query.hideCli === 'true' },
        first: AUDIT_PAGE_SIZE,
        after,
        newestFirst,
      }),
    placeholderData: keepPreviousData,
  });
  const edges = page.data?.auditLog.edges ?? [];
  const pageInfo = page.data?.auditLog.pageInfo;
  const agentNames = useAgentNames();

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(presentOnly(draft));
    pages.restart();
    setExpanded(new Set());
  };
  const clear = () => {
    setDraft({});
    setFilter({});
    pages.restart();
    setExpanded(new Set());
  };
  const toggle = (position: number) =>
    setExpanded((open) => {
      const next = new Set(open);
      if (!next.delete(position)) next.add(position);
      return next;
    });
  const onExport = async (format: ExportFormat) => {
    setExporting(format);
    setExportError(undefined);
    try {
      await downloadAudit(format, query);
    } catch (error) {
      setExportError(asApiError(error));
    } finally {
      setExporting(undefined);
    }
  };

  const { pageNumber } = pages;
  return (
    <section className="page" aria-labelledby="audit-title">
      <div className="page-head">
        <div>
          <h1 id="audit-title">Audit</h1>
          <p className="muted">Every event of the log: who caused it, what it concerns, and its payload one click away.</p>
        </div>
        <div className="page-actions">
          <button type="button" onClick={() => void onExport('jsonl')} disabled={exporting !== undefined}>
            {exporting === 'jsonl' ? 'Exporting…' : 'Export JSONL'}
          </button>
          <button type="button" onClick={() => void onExport('csv')} disabled={exporting !== undefined}>
            {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
          </button>
        </div>
      </div>
      <ErrorNote error={exportError} title="Export failed" />
      <form className="audit-filters" onSubmit={apply} aria-label="Audit filters">
        {FIELDS.map((field) => (
          <div className="field" key={field.name}>
            <label htmlFor={`audit-${field.name}`}>{field.label}</label>
            <input
              id={`audit-${field.name}`}
              value={draft[field.name] ?? ''}
              placeholder={field.hint}
              onChange={(e) => setDraft((d) => ({ ...d, [field.name]: e.target.value }))}
            />
          </div>
        ))}
        <div className="field">
          <label htmlFor="audit-kind">Kind</label>
          <select
            id="audit-kind"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value);
              restart();
            }}
          >
            <option value="">Every kind</option>
            <Options values={EVENT_KINDS} />
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-order">Order</label>
          <select
            id="audit-order"
            value={newestFirst ? 'newest' : 'oldest'}
            onChange={(e) => {
              setNewestFirst(e.target.value === 'newest');
              restart();
            }}
          >
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={showCli || kind === 'cli'}
            disabled={kind === 'cli'}
            onChange={(e) => {
              setShowCli(e.target.checked);
              restart();
            }}
          />{' '}
          Show the CLI's own events (cli.*)
        </label>
        <FilterActions onClear={clear}>
          <button type="button" className="ghost" onClick={() => void page.refetch()}>
            Refresh
          </button>
        </FilterActions>
      </form>
      <ErrorNote error={page.error} title="Cannot load the audit log" />
      <p className="result-count" role="status">
        {page.data
          ? `Page ${pageNumber}: ${edges.length} entr${edges.length === 1 ? 'y' : 'ies'}${Object.keys(filter).length ? ' matching the filters' : ''}`
          : 'Loading…'}
      </p>
      {page.data && edges.length === 0 ? (
        <div className="empty">
          <h2>No entries</h2>
          <p className="muted">Nothing in the audit log matches{Object.keys(filter).length ? ' these filters' : ' yet'}.</p>
        </div>
      ) : (
        <div className="table-scroll">
          <table className="data-table audit-table">
            <caption className="visually-hidden">Audit log entries</caption>
            <ColumnHeads names={['#', 'Recorded', 'Event', 'Who', 'Session', 'Run', 'Agent', 'Tool', 'Decision']}>
              <th scope="col">
                <span className="visually-hidden">Details</span>
              </th>
            </ColumnHeads>
            <tbody>
              {edges.map(({ node }) => {
                const open = expanded.has(node.position);
                return (
                  <Fragment key={node.position}>
                    <tr>
                      <td>{node.position}</td>
                      <td>
                        <time dateTime={node.recordedAt}>{new Date(node.recordedAt).toLocaleString()}</time>
                      </td>
                      <td className="mono">{node.eventType}</td>
                      <td>
                        <button
                          type="button"
                          className="link-button"
                          title={`${node.actorKind} ${node.actorId}: show only what they did`}
                          onClick={() => {
                            setDraft((d) => ({ ...d, actor: node.actorId }));
                            setFilter((f) => ({ ...f, actor: node.actorId }));
                            restart();
                          }}
                        >
                          {whoOf(node)}
                        </button>
                      </td>
                      <td>{node.sessionId && <SessionTitleLink sessionId={node.sessionId} />}</td>
                      <td>
                        {node.runId && (
                          <Link className="mono" to={`/runs/${node.runId}`} title={`Run ${node.runId}`}>
                            {node.runId.slice(0, 8)}
                          </Link>
                        )}
                      </td>
                      <td title={node.agentId ?? undefined}>{node.agentId ? (agentNames.get(node.agentId) ?? node.agentId) : ''}</td>
                      <td className="mono">{node.toolName ?? ''}</td>
                      <td>{node.decision && <span className={`decision decision-${node.decision}`}>{node.decision}</span>}</td>
                      <td>
                        <button
                          type="button"
                          className="link-button"
                          aria-expanded={open}
                          aria-controls={`audit-entry-${node.position}`}
                          aria-label={`${open ? 'Hide' : 'Show'} entry ${node.position}`}
                          onClick={() => toggle(node.position)}
                        >
                          {open ? 'Hide' : 'Show'}
                        </button>
                      </td>
                    </tr>
                    {open && (
                      <tr id={`audit-entry-${node.position}`} className="audit-detail">
                        <td colSpan={9}>
                          <pre className="mono" aria-label={`Entry ${node.position}`}>
                            {JSON.stringify(node, null, 2)}
                          </pre>
                          <EventPayload position={node.position} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager label="Audit pages" pages={pages} pageInfo={pageInfo} fetching={page.isFetching} />
    </section>
  );
}

/** The event itself (data and metadata), read when its row is opened: the audit entry only indexes it. */
function EventPayload({ position }: { position: number }) {
  const event = useQuery({ queryKey: ['audit-event', position], queryFn: () => request(AuditEventQuery, { position }) });
  if (event.error) return <ErrorNote error={event.error} title="The event could not be loaded" />;
  if (!event.data) return <p className="muted">Loading the payload…</p>;
  const found = event.data.auditEvent;
  return (
    <>
      <h3 className="small">Payload</h3>
      <pre className="mono" aria-label={`Payload of entry ${position}`}>
        {found ? JSON.stringify({ data: found.data, metadata: found.metadata }, null, 2) : 'The event is no longer in the log.'}
      </pre>
    </>
  );
}
