import { type Message, type Part, Role } from '@a2a-js/sdk';

/** A text part as A2A 1.0 writes it (the SDK's proto shape: every field present). */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

/** A message of a task: `role` says who wrote it (the client's prompt, the agent's answer or question). */
export function taskMessage(role: 'user' | 'agent', ids: { messageId: string; taskId: string; contextId: string }, text: string): Message {
  return {
    messageId: ids.messageId,
    contextId: ids.contextId,
    taskId: ids.taskId,
    role: role === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The largest prompt a run takes (the API's limit on `prompt`). */
export const MAX_PROMPT_CHARS = 200_000;

/** Why a message cannot be a prompt, or the prompt: its text parts in order, a data part as JSON. */
export function promptOfMessage(message: Pick<Message, 'parts'>): { prompt: string } | { problem: string } {
  const pieces: string[] = [];
  for (const [i, part] of message.parts.entries()) {
    const content = part.content;
    if (content?.$case === 'text') pieces.push(content.value);
    else if (content?.$case === 'data') pieces.push('```json\n' + JSON.stringify(content.value, null, 2) + '\n```');
    else {
      const kind = content?.$case === 'raw' || content?.$case === 'url' ? `a file (${content.$case})` : 'empty';
      return { problem: `part ${i} is ${kind}: this agent reads text and data parts only` };
    }
  }
  const prompt = pieces.join('\n\n').trim();
  if (prompt === '') return { problem: 'the message has no text: give at least one non-empty text part' };
  if (prompt.length > MAX_PROMPT_CHARS) return { problem: `the message is ${prompt.length} characters; at most ${MAX_PROMPT_CHARS} are taken` };
  return { prompt };
}

/** The decision a message gives to a pending approval: a data part `{decision}`, or text that starts with yes/approve or no/deny. */
export function decisionOfMessage(message: Pick<Message, 'parts'>): { decision: 'approve' | 'deny'; reason?: string } | undefined {
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'data' && content.value && typeof content.value === 'object') {
      const { decision, reason } = content.value as { decision?: unknown; reason?: unknown };
      if (decision === 'approve' || decision === 'deny')
        return { decision, ...(typeof reason === 'string' && reason ? { reason: reason.slice(0, 4000) } : {}) };
    }
  }
  const text = message.parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .join(' ')
    .trim();
  const word = /^(\w+)/.exec(text.toLowerCase())?.[1];
  const reason = text.length > 0 ? { reason: text.slice(0, 4000) } : {};
  if (word && ['yes', 'approve', 'approved', 'allow', 'ok'].includes(word)) return { decision: 'approve', ...reason };
  if (word && ['no', 'deny', 'denied', 'reject'].includes(word)) return { decision: 'deny', ...reason };
  return undefined;
}
