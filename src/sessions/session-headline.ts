import { CLI_EVENT_PREFIX, type RecordedCliEventData, SessionEvents } from './session.events';

/**
 * What a list shows of a session without opening it: a title (what the CLI named it with
 * `session.title_changed`, else its first message) and a preview (its last message). A fold of the
 * session's own stream, like its status; events of the CLI's sub-agents (protocol 3 tags them with
 * `agentId`) are theirs, not the session's.
 */
export interface SessionHeadline {
  title: string | null;
  preview: string | null;
}

/** Long enough for a sentence, short enough for one line of a list. */
export const TITLE_MAX = 80;
export const PREVIEW_MAX = 160;

const CLI_TITLE_CHANGED = `${CLI_EVENT_PREFIX}session.title_changed`;
const CLI_ASSISTANT_MESSAGE = `${CLI_EVENT_PREFIX}assistant.message`;

/** Whether the event can change a session's headline (the few that do, of the many a session records). */
export function changesSessionHeadline(event: { type: string; data: unknown }): boolean {
  return headlineChangeOf(event) !== undefined;
}

/** The headline after `event`, from the one before; the same object when it changes nothing. */
export function evolveHeadline(before: SessionHeadline, event: { type: string; data: unknown }): SessionHeadline {
  const change = headlineChangeOf(event);
  if (!change) return before;
  if (change.kind === 'title') return change.text === before.title ? before : { ...before, title: change.text };
  // A message is the preview; the first one is also the title until the CLI names the session.
  const title = change.kind === 'user-message' && before.title === null ? shorten(change.text, TITLE_MAX) : before.title;
  const preview = shorten(change.text, PREVIEW_MAX);
  return title === before.title && preview === before.preview ? before : { title, preview };
}

type HeadlineChange = { kind: 'title' | 'user-message' | 'assistant-message'; text: string };

function headlineChangeOf(event: { type: string; data: unknown }): HeadlineChange | undefined {
  if (event.type === SessionEvents.messageSent) {
    const text = plainText(stringOr((event.data as { prompt?: unknown }).prompt));
    return text ? { kind: 'user-message', text } : undefined;
  }
  if (event.type !== CLI_TITLE_CHANGED && event.type !== CLI_ASSISTANT_MESSAGE) return undefined;
  const data = event.data as RecordedCliEventData;
  const payload = data.payload ?? {};
  // A sub-agent's own words (tagged, or answering its parent's tool call) are not the session's.
  if (data.agentId || payload.parentToolCallId) return undefined;
  if (event.type === CLI_TITLE_CHANGED) {
    const title = shorten(plainText(stringOr(payload.title)), TITLE_MAX);
    return title ? { kind: 'title', text: title } : undefined;
  }
  // An assistant message with only tool requests says nothing a reader would call a message.
  const text = plainText(stringOr(payload.content));
  return text ? { kind: 'assistant-message', text } : undefined;
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * One line of plain words from a message that is often markdown: code fences, emphasis, heading and
 * quote marks and list bullets go, runs of white space become one space. A list shows it as text.
 */
export function plainText(text: string): string {
  return text
    .replace(/```[^\n]*\n?/g, ' ')
    .replace(/^\s{0,3}(?:#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/(\*\*|__|`)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters, cut at a word where one is near, with an ellipsis when cut. */
export function shorten(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const head = chars.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  const cut = space >= max * 0.6 ? head.slice(0, space) : head;
  return `${cut.trimEnd()}…`;
}
