import { ApiError } from '../api/client';
import { currentToken, goToSignIn, signInAt, tokenRequired } from '../api/token';

/** The OpenAPI document as Swagger UI reads it (only its being an object matters here). */
export type OpenApiDocument = Record<string, unknown>;

/** The service's OpenAPI document (it sits behind the same credential as /api). */
export const OPENAPI_DOCUMENT_PATH = '/api/docs-json';

function authorization(): Record<string, string> {
  const token = currentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * The document, fetched as the console calls the API: the tab's token or key in the header, the sign-in
 * cookie (same origin) by itself. A 401 asks for the token, or sends a person to the sign-in.
 */
export async function loadOpenApiDocument(): Promise<OpenApiDocument> {
  let response: Response;
  try {
    response = await fetch(OPENAPI_DOCUMENT_PATH, { headers: { Accept: 'application/json', ...authorization() }, cache: 'no-store' });
  } catch {
    throw new ApiError('The service cannot be reached; check that it is running', 'unreachable', 0);
  }
  const body = (await response.json().catch(() => undefined)) as
    (OpenApiDocument & { code?: string; message?: string; details?: Record<string, unknown> }) | undefined;
  if (response.status === 401) {
    const message = body?.message ?? 'The API docs need the API token';
    const signIn = body?.details?.signIn;
    if (typeof signIn === 'string' && signIn.startsWith('/')) {
      signInAt(signIn);
      goToSignIn(signIn);
    } else tokenRequired(message, 'http');
    throw new ApiError(message, 'unauthorized', 401, body?.details);
  }
  if (!response.ok || !body || typeof body.openapi !== 'string') {
    throw new ApiError(body?.message ?? `${OPENAPI_DOCUMENT_PATH} answered HTTP ${response.status}`, body?.code ?? 'http_error', response.status);
  }
  return body;
}

/** A call Swagger UI is about to send (its "Try it out"): what the interceptor may change. */
export interface SwaggerRequest {
  url: string;
  headers: Record<string, string>;
  [field: string]: unknown;
}

/**
 * Swagger UI's calls carry the console's credential, as the console's own do: the tab's token or key,
 * unless the person typed another into Authorize. Only calls to this origin: a URL elsewhere (a
 * document's `servers` entry) never gets the token.
 */
export function withConsoleCredential(request: SwaggerRequest): SwaggerRequest {
  const sameOrigin = new URL(request.url, window.location.href).origin === window.location.origin;
  const typed = Object.keys(request.headers).some((name) => name.toLowerCase() === 'authorization');
  if (sameOrigin && !typed) Object.assign(request.headers, authorization());
  return request;
}
