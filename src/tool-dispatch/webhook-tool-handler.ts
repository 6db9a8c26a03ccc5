import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import type { ToolResult } from '../copilot-cli/cli-protocol';
import type { ToolInvocation } from '../sessions/builtin-tool-catalog';

export const SIGNATURE_HEADER = 'x-switchboard-signature';
const MAX_RESPONSE_BYTES = 1_000_000;

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Calls a tool's webhook. Every way it can go wrong (timeout, refused connection, non-2xx,
 * unreadable body) becomes a failure result the model can read; nothing throws, nothing hangs.
 */
@Injectable()
export class WebhookToolHandler {
  private readonly timeoutMs: number;
  private readonly secret?: string;

  constructor(@Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig) {
    this.timeoutMs = config.tools.webhookTimeoutMs;
    this.secret = config.tools.webhookSecret;
  }

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
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.secret) headers[SIGNATURE_HEADER] = signBody(this.secret, body);
    // One deadline for the whole exchange: headers and body.
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal });
    } catch (error) {
      const e = error as Error & { cause?: { code?: string } };
      const why =
        e.name === 'TimeoutError' ? `did not answer within ${this.timeoutMs} ms` : `could not be reached (${e.cause?.code ?? e.message})`;
      return failure(`Tool ${invocation.toolName} failed: its webhook ${why}.`);
    }
    const raw = await readLimited(response);
    if (raw === undefined && signal.aborted) {
      return failure(`Tool ${invocation.toolName} failed: its webhook did not answer within ${this.timeoutMs} ms.`);
    }
    if (!response.ok) {
      return failure(`Tool ${invocation.toolName} failed: its webhook answered HTTP ${response.status}.`, raw?.slice(0, 500));
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

async function readLimited(response: Response): Promise<string | undefined> {
  try {
    const buffer = Buffer.from(await response.arrayBuffer());
    return buffer.subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
  } catch {
    return undefined;
  }
}
