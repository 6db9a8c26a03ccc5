import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import { GraphiQL } from 'graphiql';
import { type FormEvent, StrictMode, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { currentToken, forgetToken, saveToken } from '../api/token';
import { ideFetcher } from './ide-fetcher';
import './graphiql.css';

const FIRST_QUERY = `# Switchboard's GraphQL API: the console reads it too. Ctrl-Enter runs the query.
query Library {
  agents {
    id
    name
    description
  }
  sessions(limit: 5) {
    sessionId
    status
  }
}
`;

/** GraphiQL with a bar for the API token, kept for this tab like the console's (sessionStorage, the same key). */
function GraphqlIde() {
  const [token, setToken] = useState(currentToken);
  const [draft, setDraft] = useState('');
  const fetcher = useMemo(() => ideFetcher(token), [token]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim() === '') return;
    saveToken(draft.trim());
    setToken(draft.trim());
    setDraft('');
  };
  return (
    <div className="ide">
      <header className="ide-bar">
        <a href="/">Switchboard console</a>
        {token ? (
          <span>
            Sending the API token of this tab.{' '}
            <button
              type="button"
              onClick={() => {
                forgetToken();
                setToken(undefined);
              }}
            >
              Forget it
            </button>
          </span>
        ) : (
          <form onSubmit={submit} aria-label="API token">
            <label>
              API token (when the service has SWITCHBOARD_API_TOKEN){' '}
              <input type="password" autoComplete="off" value={draft} onChange={(event) => setDraft(event.target.value)} />
            </label>{' '}
            <button type="submit">Use it</button>
          </form>
        )}
      </header>
      <div className="ide-main">
        <GraphiQL fetcher={fetcher} defaultQuery={FIRST_QUERY} />
      </div>
    </div>
  );
}

createRoot(document.getElementById('graphiql') as HTMLElement).render(
  <StrictMode>
    <GraphqlIde />
  </StrictMode>,
);
