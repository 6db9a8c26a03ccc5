import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useMay } from '../api/me';
import { type ApiError, onLiveConnection, request, subscribe } from '../api/client';
import { asApiError } from '../api/mutation';
import { useQuery } from '@tanstack/react-query';
import { useCoalesced } from '../api/hooks';
import { Link } from 'react-router';
import { ErrorNote } from '../ui/ErrorNote';
import { PageHead } from '../ui/PageHead';
import { Icon } from '../ui/icons';
import { AgentCard } from './AgentCard';
import { FILTERS, filterCounts, type LibraryFilter, matchesFilter, searchIn, searchIndex } from './library-filter';
import { AgentLibraryChangedSubscription, LibraryQuery } from './operations';
import { libraryKey, useImportAgents } from './mutations';
import { downloadLibrary, readAgentFiles } from './transfer';

/** Cards rendered at first; more as the list scrolls into view, so a keystroke never re-renders 1,000 cards. */
const BATCH = 24;

type ImportOutcome =
  { kind: 'done'; text: string } | { kind: 'refused'; error: ApiError; problems: Array<{ file: string; line?: number; message: string }> };

export function AgentLibraryPage() {
  const mayAdminister = useMay('administer');
  const mayOperate = useMay('operate');
  const library = useQuery({ queryKey: libraryKey, queryFn: () => request(LibraryQuery) });
  const importAgents = useImportAgents();
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<LibraryFilter>('all');
  const [layout, setLayout] = useState<'grid' | 'list'>(() => (localStorage.getItem('switchboard.libraryLayout') === 'list' ? 'list' : 'grid'));
  const [paging, setPaging] = useState({ for: '', shown: BATCH });
  const [importOutcome, setImportOutcome] = useState<ImportOutcome | undefined>();
  const [busy, setBusy] = useState<'import' | 'export' | undefined>();
  const [exportError, setExportError] = useState<ApiError | undefined>();
  const fileInput = useRef<HTMLInputElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  // Changes from elsewhere (another tab, the API, agents:import): reload once per burst.
  const reloadSoon = useCoalesced(library.refetch, 150);
  useEffect(() => subscribe(AgentLibraryChangedSubscription, {}, reloadSoon), [reloadSoon]);
  useEffect(() => onLiveConnection(reloadSoon), [reloadSoon]);

  const agents = useMemo(() => library.data?.agents ?? [], [library.data]);
  const names = useMemo(() => new Map(agents.map((a) => [a.id, a.name])), [agents]);
  const index = useMemo(() => searchIndex(agents), [agents]);
  const matched = useMemo(() => searchIn(index, search), [index, search]);
  const counts = useMemo(() => filterCounts(matched), [matched]);
  const visible = useMemo(() => matched.filter((a) => matchesFilter(a, filter)), [matched, filter]);

  // A new filter or search starts again from the first batch.
  const pageKey = `${filter}\n${search}`;
  const shown = paging.for === pageKey ? paging.shown : BATCH;
  const showMore = useCallback(() => setPaging({ for: pageKey, shown: shown + BATCH }), [pageKey, shown]);
  useEffect(() => {
    if (library.data) performance.mark('switchboard:library-rendered');
  }, [library.data]);
  useEffect(() => {
    const target = sentinel.current;
    if (!target || shown >= visible.length) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && showMore(), { rootMargin: '600px' });
    observer.observe(target);
    return () => observer.disconnect();
  }, [shown, visible.length, showMore]);

  const chooseLayout = (next: 'grid' | 'list') => {
    localStorage.setItem('switchboard.libraryLayout', next);
    setLayout(next);
  };

  const onImport = async (files: File[]) => {
    if (files.length === 0) return;
    setBusy('import');
    setImportOutcome(undefined);
    try {
      const { importAgents: result } = await importAgents.mutateAsync({ files: await readAgentFiles(files) });
      const parts = [`${result.created.length} created`, `${result.updated.length} updated`, `${result.unchanged.length} unchanged`];
      setImportOutcome({ kind: 'done', text: `Imported ${files.length} file${files.length === 1 ? '' : 's'}: ${parts.join(', ')}.` });
    } catch (error) {
      const apiError = asApiError(error);
      const problems = Array.isArray(apiError.details?.problems)
        ? (apiError.details.problems as Array<{ file: string; line?: number; message: string }>)
        : [];
      setImportOutcome({ kind: 'refused', error: apiError, problems });
    } finally {
      setBusy(undefined);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const onExport = async () => {
    setBusy('export');
    setExportError(undefined);
    try {
      await downloadLibrary();
    } catch (error) {
      setExportError(asApiError(error));
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="page" aria-labelledby="library-title">
      <PageHead
        titleId="library-title"
        title="Agents"
        actions={
          <>
            <div className="page-actions">
              <input
                ref={fileInput}
                id="import-files"
                type="file"
                accept=".json,application/json"
                multiple
                hidden
                onChange={(e) => void onImport([...(e.target.files ?? [])])}
              />
              {mayAdminister && (
                <button type="button" onClick={() => fileInput.current?.click()} disabled={busy !== undefined}>
                  {busy === 'import' ? 'Importing…' : 'Import'}
                </button>
              )}
              <button type="button" onClick={() => void onExport()} disabled={busy !== undefined || agents.length === 0}>
                {busy === 'export' ? 'Exporting…' : 'Export'}
              </button>
              {mayAdminister && (
                <Link className="button primary" to="/agents/new">
                  New agent
                </Link>
              )}
            </div>
          </>
        }
      >
        Build teams: an agent with sub-agents delegates to them. Composable agents (marked <Icon name="composable" /> Composable) can join a team.
      </PageHead>

      {importOutcome?.kind === 'done' && (
        <p className="notice" role="status">
          {importOutcome.text}
        </p>
      )}
      {importOutcome?.kind === 'refused' && (
        <div className="error-note" role="alert" aria-labelledby="import-refused">
          <strong id="import-refused">Nothing was imported.</strong>
          {importOutcome.problems.length > 0 ? (
            <ul className="problems">
              {importOutcome.problems.map((p, i) => (
                <li key={i}>
                  <code>
                    {p.file}
                    {p.line ? `:${p.line}` : ''}
                  </code>{' '}
                  {p.message}
                </li>
              ))}
            </ul>
          ) : (
            <span> {importOutcome.error.message}</span>
          )}
        </div>
      )}
      <ErrorNote error={exportError} title="Export failed" />
      <ErrorNote error={library.error} title="The library could not be loaded" />

      <div className="toolbar">
        <div className="search">
          <label htmlFor="agent-search" className="visually-hidden">
            Search agents
          </label>
          <input
            id="agent-search"
            type="search"
            placeholder="Search by name, id or description"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="segmented" role="group" aria-label="Filter agents">
          {FILTERS.map((f) => (
            <button key={f.value} type="button" title={f.title} aria-pressed={filter === f.value} onClick={() => setFilter(f.value)}>
              {f.label} <span className="count">{counts[f.value]}</span>
            </button>
          ))}
        </div>
        <div className="segmented" role="group" aria-label="Layout">
          <button type="button" aria-pressed={layout === 'grid'} onClick={() => chooseLayout('grid')}>
            Grid
          </button>
          <button type="button" aria-pressed={layout === 'list'} onClick={() => chooseLayout('list')}>
            List
          </button>
        </div>
      </div>

      <p role="status" className="muted result-count">
        {library.data ? `Showing ${visible.length} of ${agents.length} agents` : library.isFetching ? 'Loading agents…' : ''}
      </p>

      {library.data && agents.length === 0 && (
        <div className="empty">
          <h2>No agents yet</h2>
          <p>
            Create your first agent, or import agent JSON files (Import above). A team is an agent whose sub-agents are other agents with a prompt and a
            description.
          </p>
          {mayAdminister && (
            <Link className="button primary" to="/agents/new">
              Create an agent
            </Link>
          )}
        </div>
      )}
      {library.data && agents.length > 0 && visible.length === 0 && (
        <div className="empty">
          <h2>No agent matches</h2>
          <p>Nothing matches “{search}” in this filter. Clear the search or pick All.</p>
          <button
            type="button"
            onClick={() => {
              setSearch('');
              setFilter('all');
            }}
          >
            Clear search and filter
          </button>
        </div>
      )}

      {visible.length > 0 && (
        <ul className={layout === 'grid' ? 'agent-grid' : 'agent-list'} aria-label="Agent library">
          {visible.slice(0, shown).map((agent) => (
            <li key={agent.id}>
              <AgentCard agent={agent} names={names} mayStart={mayOperate} />
            </li>
          ))}
        </ul>
      )}
      {shown < visible.length && (
        <div ref={sentinel} className="more">
          <button type="button" onClick={showMore}>
            Show more ({visible.length - shown} left)
          </button>
        </div>
      )}
    </section>
  );
}
