import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from '../api/client';
import { AgentNamesQuery } from './operations';

const NONE: ReadonlyMap<string, string> = new Map();

/** The library's display names by agent id, for pages that only have ids (approvals, audit); an empty map until loaded. */
export function useAgentNames(): ReadonlyMap<string, string> {
  const agents = useQuery({ queryKey: ['agents', 'names'], queryFn: () => request(AgentNamesQuery), staleTime: 60_000 });
  const list = agents.data?.agents;
  return useMemo(() => (list ? new Map(list.map((a) => [a.id, a.name])) : NONE), [list]);
}
