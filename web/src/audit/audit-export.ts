import { ApiError, CONSOLE_CLIENT_HEADER } from '../api/client';
import { currentToken, tokenRequired } from '../api/token';

export type AuditFilterFields = Partial<Record<'actor' | 'sessionId' | 'runId' | 'agentId' | 'toolName' | 'decision', string>>;
/** The query parameters of GET /api/audit and its export: the text fields, a kind, and hiding the CLI's events. */
export type AuditQueryFields = AuditFilterFields & { eventKind?: string; hideCli?: 'true' };
export type ExportFormat = 'jsonl' | 'csv';

/** The export route's URL for a filter (the same query parameters as GET /api/audit). */
export function exportUrl(format: ExportFormat, filter: AuditQueryFields): string {
  const query = new URLSearchParams({ format });
  for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
  return `/api/audit/export?${query.toString()}`;
}

/**
 * Downloads what the filter selects. The route is behind the API token, which a plain link cannot
 * send: fetch it with the token, then hand the file to the browser from a blob (the service streams it).
 */
export async function downloadAudit(format: ExportFormat, filter: AuditQueryFields): Promise<void> {
  const token = currentToken();
  let response: Response;
  try {
    response = await fetch(exportUrl(format, filter), { headers: { ...CONSOLE_CLIENT_HEADER, ...(token ? { Authorization: `Bearer ${token}` } : {}) } });
  } catch {
    throw new ApiError('The service cannot be reached; check that it is running', 'unreachable', 0);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
    const message = body.message ?? `The export answered HTTP ${response.status}`;
    if (response.status === 401) tokenRequired(message, 'http');
    throw new ApiError(message, body.code ?? 'http_error', response.status);
  }
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `switchboard-audit.${format}`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
