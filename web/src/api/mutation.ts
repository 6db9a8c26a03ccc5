import { useMutation, useQueryClient, type QueryKey, type UseMutationResult } from '@tanstack/react-query';
import type { TypedDocumentString } from '../gql/graphql';
import { ApiError, request } from './client';

/** What a write threw, as the ApiError the pages show (a network failure or a bug becomes one too). */
export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(String(error), 'error', 0);
}

/** The queries a write makes stale, from what it was sent with (and what it answered, when it succeeded). */
export type StaleAfter<R, V> = (variables: V, data: R | undefined) => readonly QueryKey[];

/**
 * One GraphQL mutation as a TanStack Query mutation: each feature's `mutations.ts` names its writes with
 * this, so what a write refreshes is said once, beside the write. `stale` is refetched once the write has
 * settled (or only after it succeeded, `when: 'success'`), without waiting for the refetch.
 */
export function useGraphqlMutation<R, V extends Record<string, unknown>>(
  document: TypedDocumentString<R, V>,
  {
    stale,
    when = 'settled',
    onSuccess,
  }: {
    stale?: StaleAfter<R, V>;
    when?: 'settled' | 'success';
    /** What else a success changes before the refresh (e.g. the token a first API key signs in with). */
    onSuccess?: (data: R, variables: V) => void;
  } = {},
): UseMutationResult<R, ApiError, V> {
  const queryClient = useQueryClient();
  const refresh = (variables: V, data: R | undefined) => {
    for (const queryKey of stale?.(variables, data) ?? []) void queryClient.invalidateQueries({ queryKey });
  };
  return useMutation<R, ApiError, V>({
    mutationFn: (variables) => request(document, ...([variables] as V extends Record<string, never> ? [] : [V])),
    onSuccess: (data, variables) => {
      onSuccess?.(data, variables);
      if (when === 'success') refresh(variables, data);
    },
    onSettled: (data, _error, variables) => (when === 'settled' ? refresh(variables, data) : undefined),
  });
}
