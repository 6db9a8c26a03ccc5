import { CLI_EVENT_PREFIX, SessionEvents } from '../sessions';

/**
 * How much of the caller's conversation `fork_context` copies into a child: the newest messages, at
 * most this many and this many characters in all (a longer message is shortened), so a long session
 * cannot blow up the child's first prompt or the model's context.
 */
export const FORK_CONTEXT_LIMITS = { maxMessages: 20, maxChars: 16_000, maxCharsPerMessage: 4_000 } as const;
export type ForkContextLimits = { maxMessages: number; maxChars: number; maxCharsPerMessage: number };

export interface ForkedMessage {
  role: 'user' | 'assistant';
  text: string;
}

export interface ForkedTranscript {
  /** The messages kept, oldest first (newest last). */
  messages: ForkedMessage[];
  /** Older messages left out by the limits. */
  omitted: number;
}

const ASSISTANT_MESSAGE = `${CLI_EVENT_PREFIX}assistant.message`;

/** The only event types forkTranscript reads: a reader of a long stream keeps these and drops the rest. */
export const FORK_TRANSCRIPT_TYPES: ReadonlySet<string> = new Set([SessionEvents.messageSent, ASSISTANT_MESSAGE]);
const SHORTENED = ' … [shortened]';

/**
 * The caller's conversation as recorded on its session stream: what it was asked (`session.message_sent`,
 * the prompt without Switchboard's reminders) and what its main agent answered (`cli.assistant.message`
 * with text; a CLI-native sub-agent's messages carry `agentId` and are not the caller's own). Pure.
 */
export function forkTranscript(
  events: ReadonlyArray<{ type: string; data: Record<string, unknown> }>,
  limits: ForkContextLimits = FORK_CONTEXT_LIMITS,
): ForkedTranscript {
  const all: ForkedMessage[] = [];
  for (const event of events) {
    if (event.type === SessionEvents.messageSent && typeof event.data.prompt === 'string' && event.data.prompt.trim()) {
      all.push({ role: 'user', text: event.data.prompt });
    } else if (event.type === ASSISTANT_MESSAGE && !event.data.agentId) {
      const payload = event.data.payload as { content?: unknown } | undefined;
      if (typeof payload?.content === 'string' && payload.content.trim()) all.push({ role: 'assistant', text: payload.content });
    }
  }
  return boundTranscript(all, limits);
}

/** The newest of `all` (oldest first) within the limits, a longer message shortened. Pure. */
export function boundTranscript(all: readonly ForkedMessage[], limits: ForkContextLimits = FORK_CONTEXT_LIMITS): ForkedTranscript {
  const kept: ForkedMessage[] = [];
  let chars = 0;
  for (let i = all.length - 1; i >= 0 && kept.length < limits.maxMessages; i--) {
    const budget = Math.min(limits.maxCharsPerMessage, limits.maxChars - chars);
    if (budget <= SHORTENED.length) break;
    const message = all[i];
    const text = message.text.length > budget ? message.text.slice(0, budget - SHORTENED.length) + SHORTENED : message.text;
    kept.unshift({ role: message.role, text });
    chars += text.length;
  }
  return { messages: kept, omitted: all.length - kept.length };
}

const FORK_CONTEXT_HEADING = 'Context: the conversation of the agent that delegated this task to you, oldest first.';
/** issue 43: an A2A task's context: the client's earlier messages to this agent and the agent's answers. */
export const A2A_CONTEXT_HEADING = 'Context: your earlier exchanges with this client in this conversation, oldest first.';

/** The child's first prompt: the forked conversation (a line saying what was left out), then its task. */
export function forkedPrompt(transcript: ForkedTranscript, task: string, heading = FORK_CONTEXT_HEADING): string {
  if (transcript.messages.length === 0) return task;
  const lines = [heading];
  if (transcript.omitted > 0) lines.push(`[${transcript.omitted} earlier message${transcript.omitted === 1 ? '' : 's'} left out]`);
  for (const message of transcript.messages) lines.push(`<${message.role}>\n${message.text}\n</${message.role}>`);
  lines.push('End of the context.', '', 'Your task:', task);
  return lines.join('\n');
}
