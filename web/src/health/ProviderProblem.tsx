import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Icon } from '../ui/icons';
import { loadProviderCheck } from './health-api';

/** How often the banner asks: the service caches its look at the provider for a few seconds anyway. */
export const PROVIDER_CHECK_REFRESH_MS = 5000;

/**
 * A model provider that does not answer, shown where the user would otherwise learn it 20 s after
 * Send: what is wrong and what to fix. Nothing while the provider answers (or its state is unknown).
 */
export function ProviderProblem() {
  const check = useQuery({ queryKey: ['health', 'provider'], queryFn: loadProviderCheck, refetchInterval: PROVIDER_CHECK_REFRESH_MS });
  const provider = check.data;
  if (!provider || provider.ok) return null;
  const lastAnswered = provider.lastAnsweredAt ? new Date(provider.lastAnsweredAt).toLocaleTimeString() : undefined;
  return (
    <div className="provider-problem" role="alert">
      <p>
        <Icon name="warning" /> <strong>The model provider is not answering:</strong> messages will fail until it does.
      </p>
      <p className="check-reason">{provider.reason ?? 'The service reports the model provider as failing; its detail needs the API token.'}</p>
      <p className="muted">
        {lastAnswered ? `It last answered at ${lastAnswered}. ` : ''}
        <Link to="/health-status">See Health</Link>
      </p>
    </div>
  );
}
