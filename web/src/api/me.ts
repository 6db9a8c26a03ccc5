import { useQuery } from '@tanstack/react-query';
import { graphql } from '../gql';
import { request } from './client';

// Who the console is signed in as (GraphQL `me`) and what their role may do: pages hide what it may not.

export const MeQuery = graphql(`
  query Me {
    me {
      kind
      id
      name
      role
      via
      may
    }
  }
`);

/** What a role may do (the service's `Permission`): read, operate sessions and runs, approve, administer. */
export type Permission = 'read' | 'operate' | 'approve' | 'administer';

export function useMe() {
  // Who one is does not change while the page lives: a new token or sign-in clears the whole cache.
  return useQuery({ queryKey: ['me'], queryFn: () => request(MeQuery), staleTime: Infinity });
}

/**
 * Whether the signed-in principal may do this. False until `me` has answered: an action appears once
 * the service said the role allows it, never shown and then refused. The service enforces it anyway.
 */
export function useMay(permission: Permission): boolean {
  const { data } = useMe();
  return data?.me.may.includes(permission) ?? false;
}
