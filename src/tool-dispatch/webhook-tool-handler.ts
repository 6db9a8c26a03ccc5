import { Injectable } from '@nestjs/common';
import type { ToolResult } from '../copilot-cli';
import type { ToolInvocation } from '../sessions';
import { SignedWebhook } from './signed-webhook';

export { SIGNATURE_HEADER, signBody } from './signed-webhook';

/**
 * Calls a tool's webhook. Every way it can go wrong (timeout, refused connection, non-2xx,
 * unreadable body, a URL the outbound guard refuses) becomes a failure result the model can read;
 * nothing throws, nothing hangs.
 */
@Injectable()
export class WebhookToolHandler {
  constructor(private readonly webhook: SignedWebhook) {}

  async call(url: string, invocation: ToolInvocation): Promise<ToolResult> {
    let body: string;
    try {
      body = JSON.stringify({
        sessionId: invocation.sessionId,
        childSessionId: invocation.childSessionId ?? null,
        agentName: invocation.agentName ?? null,
        toolCallId: invocation.toolCallId,
        toolName: invocation.toolName,
        arguments: invocation.arguments ?? {},
      });
    } catch (error) {
      return failure(`Tool ${invocation.toolName} failed: its arguments cannot be sent as JSON (${(error as Error).message}).`);
    }
    const answer = await this.webhook.post(url, body, invocation.traceparent);
    if ('refused' in answer) return refused(invocation.toolName, answer.refused);
    if ('error' in answer) return failure(`Tool ${invocation.toolName} failed: its webhook ${this.webhook.describeError(answer.error)}.`);
    const raw = answer.body;
    if (answer.status < 200 || answer.status > 299) {
      return failure(`Tool ${invocation.toolName} failed: its webhook answered HTTP ${answer.status}.`, raw.slice(0, 500));
    }
    return parseToolAnswer(invocation.toolName, raw);
  }
}

/** `{ result }` (any JSON, stringified for the model) or `{ textResultForLlm, resultType }`. */
export function parseToolAnswer(toolName: string, raw: string | undefined): ToolResult {
  let parsed: unknown;
  try {
    parsed = raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const answer = parsed as Record<string, unknown>;
    if (typeof answer.textResultForLlm === 'string') {
      const resultType = ['success', 'failure', 'rejected', 'denied'].includes(answer.resultType as string)
        ? (answer.resultType as ToolResult['resultType'])
        : 'success';
      return { textResultForLlm: answer.textResultForLlm, resultType, ...(typeof answer.error === 'string' ? { error: answer.error } : {}) };
    }
    if ('result' in answer) {
      const value = answer.result;
      return { textResultForLlm: typeof value === 'string' ? value : JSON.stringify(value), resultType: 'success' };
    }
  }
  return failure(
    `Tool ${toolName} failed: its webhook answered with a body that is neither {"result": ...} nor {"textResultForLlm": ..., "resultType": ...}.`,
    raw?.slice(0, 500),
  );
}

function failure(text: string, detail?: string): ToolResult {
  return { textResultForLlm: text, resultType: 'failure', error: detail ? `${text} ${detail}` : text };
}

/** The guard's reason is also what the audit records (the routed request's `reason` is the result's error). */
function refused(toolName: string, reason: string): ToolResult {
  return failure(`Tool ${toolName} failed: its webhook URL is refused by the outbound guard (${reason}).`);
}
