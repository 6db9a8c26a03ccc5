import type { ReadTables } from '../../database';
import type { RoutedRequestView } from './list-routed-requests/list-routed-requests.query';

/** A stored JSON column as the value it holds; text that is not JSON (older rows) as the text. */
function parsedJson(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A `routed_requests` row as the audit shows it: its global position, its JSON columns parsed. */
export function routedRequestView({ globalPosition, arguments: args, result, ...rest }: ReadTables['routedRequests']['$inferSelect']): RoutedRequestView {
  return { position: globalPosition, ...rest, arguments: parsedJson(args), result: parsedJson(result) };
}
