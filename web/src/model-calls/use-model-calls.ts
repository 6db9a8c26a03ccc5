import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { type ApiError, request } from '../api/client';
import { useCoalesced, usePolling } from '../api/hooks';
import type { ModelCallFieldsFragment, ModelCallSpendFieldsFragment } from '../gql/graphql';
import { ModelRouteQuery, RunModelCallsQuery, RunTreeSpendQuery, SessionModelCallsQuery } from './operations';

export type ModelCallRow = ModelCallFieldsFragment;
export type ModelCallSpend = ModelCallSpendFieldsFragment;

/** Calls per page: a chat's first page, then "Show more". */
const PAGE = 50;

/**
 * Whether the CLI routes model calls through Switchboard. Routed, it stays so until the CLI restarts;
 * not routed, it is asked again every 5 s: the service says so too before its CLI has started (it starts
 * with the first session or run).
 */
export function useModelRoute() {
  return useQuery({
    queryKey: ['model-calls', 'route'],
    queryFn: () => request(ModelRouteQuery),
    staleTime: 60_000,
    refetchInterval: (query) => (query.state.data?.modelRoute.routed === false ? 5000 : false),
  });
}

/** What a list of calls gives its view: the calls loaded so far (oldest first), their sum, paging. */
export interface ModelCallsView {
  calls: ModelCallRow[];
  spend: ModelCallSpend | undefined;
  error: ApiError | null;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/**
 * The calls are not in the page's own event stream (each call is a stream of its own): they are asked
 * again shortly after the page's events move (`version`), and every 2 s while a call is in flight.
 */
function useLiveRefresh(refetch: () => unknown, version: number, inFlight: boolean) {
  const refetchSoon = useCoalesced(refetch, 1000);
  useEffect(() => {
    if (version > 0) refetchSoon();
  }, [version, refetchSoon]);
  usePolling(() => {
    if (inFlight) void refetch();
  }, 2000);
}

/** One page of a list of calls as the list's query answers it: none when its session or run is gone. */
interface CallsPage {
  modelCalls: { calls: ModelCallRow[]; nextCursor?: string | null };
  modelCallSpend: ModelCallSpend;
}

/** The paging, refreshing and summing both lists share; each names its query and where its page is in the answer. */
function usePagedModelCalls<Answer>(
  queryKey: readonly unknown[],
  fetchPage: (after: string | undefined) => Promise<Answer>,
  pageOf: (answer: Answer) => CallsPage | null | undefined,
  version: number,
): ModelCallsView {
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => pageOf(last)?.modelCalls.nextCursor ?? undefined,
  });
  const calls = useMemo(() => (query.data?.pages ?? []).flatMap((page) => pageOf(page)?.modelCalls.calls ?? []), [query.data, pageOf]);
  useLiveRefresh(
    query.refetch,
    version,
    calls.some((c) => c.status === 'in_flight'),
  );
  const last = query.data?.pages.at(-1);
  return {
    calls,
    spend: last === undefined ? undefined : pageOf(last)?.modelCallSpend,
    error: query.error,
    loading: query.isPending,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

/** A session's model calls (its main agent's and its CLI sub-agents'), oldest first. */
export function useSessionModelCalls(sessionId: string, version: number): ModelCallsView {
  return usePagedModelCalls(
    ['model-calls', 'session', sessionId],
    (after) => request(SessionModelCallsQuery, { id: sessionId, after, limit: PAGE }),
    sessionPage,
    version,
  );
}

/** A run's model calls, or its whole subtree's, oldest first. */
export function useRunModelCalls(runId: string, subtree: boolean, version: number): ModelCallsView {
  return usePagedModelCalls(
    ['model-calls', 'run', runId, subtree],
    (after) => request(RunModelCallsQuery, { id: runId, subtree, after, limit: PAGE }),
    runPage,
    version,
  );
}

// Module-level so the lists' memo keeps its identity across renders.
const sessionPage = (answer: { session?: CallsPage | null }) => answer.session;
const runPage = (answer: { run?: CallsPage | null }) => answer.run;

/** Runs of a tree the cost column covers: the service's own cap on Run.subtree. */
const TREE_SPEND_LIMIT = 1000;

/** What the run tree's cost column reads per run: its own calls' sum and its subtree's. */
export interface RunSpend {
  own: ModelCallSpend;
  subtree: ModelCallSpend;
}

/**
 * Each run's own and subtree spend in the tree under `runId`, by run id, as the service sums them; asked
 * again after the page's events move (`version`), at most every 2 s.
 */
export function useRunTreeSpend(runId: string, version: number): ReadonlyMap<string, RunSpend> {
  const query = useQuery({
    queryKey: ['model-calls', 'tree-spend', runId],
    queryFn: () => request(RunTreeSpendQuery, { id: runId, limit: TREE_SPEND_LIMIT }),
  });
  const refetchSoon = useCoalesced(query.refetch, 2000);
  useEffect(() => {
    if (version > 0) refetchSoon();
  }, [version, refetchSoon]);
  return useMemo(() => new Map((query.data?.run?.subtree ?? []).map((run) => [run.runId, { own: run.own, subtree: run.all }])), [query.data]);
}
