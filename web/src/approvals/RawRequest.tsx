import { type ApprovalLike, requestLine } from './approval-inbox';

/**
 * A request as the CLI sent it, one click away from the sentence that says it in words: its kind, tool,
 * ids and arguments. The inbox's cards and the chat's and run page's waiting lists show the same.
 */
export function RawRequest({
  approval,
}: {
  approval: Pick<ApprovalLike, 'id' | 'kind' | 'toolName' | 'arguments' | 'runId'> & { sessionId?: string | null };
}) {
  const ids = [approval.sessionId && `session ${approval.sessionId}`, approval.runId && `run ${approval.runId}`, `request ${approval.id}`].filter(Boolean);
  return (
    <details className="raw-request">
      <summary>Details</summary>
      <p className="mono small">{requestLine(approval)}</p>
      <p className="mono small">{ids.join(' · ')}</p>
      <pre className="mono small">{JSON.stringify(approval.arguments, null, 2)}</pre>
    </details>
  );
}
