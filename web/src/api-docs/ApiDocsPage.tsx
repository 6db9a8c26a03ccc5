import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../api/client';
import { ErrorNote } from '../ui/ErrorNote';
import { loadOpenApiDocument, withConsoleCredential } from './openapi-document';

/**
 * The REST API's docs (Swagger UI) inside the console: a browser cannot send the bearer header on a
 * navigation to /api/docs, so this page fetches the document and sends every "Try it out" call with the
 * console's own credential (the tab's token or key, or the sign-in cookie). It is a console page: the
 * console's Content-Security-Policy, no framing.
 */
export function ApiDocsPage() {
  const document = useQuery({ queryKey: ['openApiDocument'], queryFn: loadOpenApiDocument, staleTime: Infinity, retry: false });
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState<ApiError | undefined>();

  useEffect(() => {
    const node = host.current;
    if (!document.data || !node) return;
    let left = false;
    import('./swagger-ui').then(
      ({ mountSwaggerUi }) => {
        if (!left) mountSwaggerUi(node, document.data, withConsoleCredential);
      },
      (error: unknown) => setFailed(new ApiError(`Swagger UI could not be loaded: ${String(error)}`, 'load_failed', 0)),
    );
    return () => {
      left = true;
      node.replaceChildren();
    };
  }, [document.data]);

  return (
    <section className="page" aria-labelledby="api-docs-title">
      <h1 id="api-docs-title">API docs</h1>
      <p>
        The REST API, generated from the service&apos;s code. <strong>Try it out</strong> calls the service as you are signed in here; programs send{' '}
        <code>Authorization: Bearer &lt;token or key&gt;</code>. The document itself: <code>GET /api/docs-json</code>.
      </p>
      {document.isPending && <p role="status">Loading the API docs…</p>}
      <ErrorNote error={document.error ?? failed} title="The API docs could not be loaded" />
      <div ref={host} className="api-docs" />
    </section>
  );
}
