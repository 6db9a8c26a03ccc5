import type { RecordedExchange } from './replay-planner';

/** The answer frames a played-back call sends the CLI: its head, then its body in the pieces the CLI reads. */
export interface RecordedAnswerFrames {
  status: number;
  headers: Record<string, string[]>;
  chunks: string[];
}

/**
 * A recorded answer as the CLI expects it again: the recorded status, the content type of what was asked
 * (an SSE stream for a streamed request, else JSON) and the body. A streamed answer goes back one server-sent
 * event per chunk, as a provider sends it (the CLI shows its deltas as they come).
 */
export function recordedAnswerFrames(recorded: RecordedExchange): RecordedAnswerFrames {
  const answer = recorded.answer ?? '';
  const contentType = recorded.stream ? 'text/event-stream' : 'application/json';
  const chunks = recorded.stream ? sseEventsOf(answer) : [answer];
  return { status: recorded.status, headers: { 'content-type': [contentType] }, chunks };
}

/** The text cut after each blank line that ends an event; whatever follows the last one is a chunk of its own. */
export function sseEventsOf(text: string): string[] {
  const events: string[] = [];
  const boundary = /\r?\n\r?\n/g;
  let from = 0;
  for (let match = boundary.exec(text); match; match = boundary.exec(text)) {
    const end = match.index + match[0].length;
    events.push(text.slice(from, end));
    from = end;
  }
  if (from < text.length) events.push(text.slice(from));
  return events;
}
