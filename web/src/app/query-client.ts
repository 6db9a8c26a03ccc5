import { QueryClient } from '@tanstack/react-query';

/**
 * The one cache of server state. No retries: an error shows where it happened at once, as the service
 * already says what to fix (or that it is temporary). No refetch on focus: live data comes from the
 * service's subscriptions, which invalidate what they change.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
