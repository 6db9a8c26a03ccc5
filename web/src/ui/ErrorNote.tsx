import type { ApiError } from '../api/client';

/** An API error where it happened, in the API's own words. */
export function ErrorNote({ error, title }: { error: ApiError | null | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div className="error-note" role="alert">
      {title && <strong>{title}: </strong>}
      {error.message}
    </div>
  );
}
