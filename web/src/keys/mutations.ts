import { renewLiveConnection } from '../api/client';
import { useGraphqlMutation } from '../api/mutation';
import { saveToken } from '../api/token';
import { CreateApiKeyMutation, RevokeApiKeyMutation } from './operations';

// The keys page's writes, and the queries each makes stale.

export const apiKeysKey = ['apiKeys'] as const;

export const useRevokeApiKey = () => useGraphqlMutation(RevokeApiKeyMutation, { stale: () => [apiKeysKey] });

/**
 * A new key joins the list. The first one closes the open API: `signInWithIt`, the console signs in with
 * it before anything else asks (the live connection too), and who it is (`me`) is asked again.
 */
export const useCreateApiKey = ({ signInWithIt }: { signInWithIt: boolean }) =>
  useGraphqlMutation(CreateApiKeyMutation, {
    onSuccess: ({ createApiKey }) => {
      if (!signInWithIt) return;
      saveToken(createApiKey.key);
      renewLiveConnection();
    },
    stale: () => (signInWithIt ? [['me'], apiKeysKey] : [apiKeysKey]),
    when: 'success',
  });
