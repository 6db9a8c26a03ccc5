import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import type { ToolResult } from '../copilot-cli/cli-protocol';
import { OUTBOUND_REFUSED, OutboundUrlGuard } from '../outbound/outbound-url-guard';
import type { ToolInvocation } from '../sessions/builtin-tool-catalog';

export const SIGNATURE_HEADER = 'x-switchboard-signature';
const MAX_RESPONSE_BYTES = 1_000_000;

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Calls a tool's webhook. Every way it can go wrong (timeout, refused connection, non-2xx,
 * unreadable body, a URL the outbound guard refuses) becomes a failure result the model can read;
 * nothing throws, nothing hangs.
 */
@Injectable()
export class WebhookToolHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookToolHandler.name);
  private readonly timeoutMs: number;
  private readonly secret?: string;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly outbound: OutboundUrlGuard,
  ) {
    this.timeoutMs = config.tools.webhookTimeoutMs;
    this.secret = config.tools.webhookSecret;
  }

  onApplicationBootstrap(): void {
    if (!this.secret) {
      this.logger.warn("SWITCHBOARD_WEBHOOK_SECRET is not set: webhook calls are not signed, so a webhook cannot tell them from anyone else's");
    }
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
    // An IP address is checked here; a host name when the connection resolves it (lookupFor).
    const verdict = this.outbound.checkWithoutDns(url);
    if (!verdict.allowed) return refused(invocation.toolName, verdict.reason);
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (this.secret) headers[SIGNATURE_HEADER] = signBody(this.secret, body);
    const answer = await post(url, headers, body, this.timeoutMs, (port) => this.outbound.lookupFor(port));
    if ('refused' in answer) return refused(invocation.toolName, answer.refused);
    if ('error' in answer) {
      const why = answer.error === 'timeout' ? `did not answer within ${this.timeoutMs} ms` : `could not be reached (${answer.error})`;
      return failure(`Tool ${invocation.toolName} failed: its webhook ${why}.`);
    }
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

/**
 * node:http with keep-alive agents rather than fetch: a webhook is called once per tool call, and
 * fetch's WHATWG request/stream machinery costs ~3-4x the CPU of http.request per small POST
 * (bench:dispatch, routed vs routed-builtin). Connections are kept alive either way.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 256 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

type PostOutcome = { status: number; body: string } | { error: string } | { refused: string };

/** One POST with one deadline for the whole exchange (connect, headers, body); never rejects. */
function post(
  url: string,
  headers: Record<string, string | number>,
  body: string,
  timeoutMs: number,
  lookupFor: (port: number) => LookupFunction,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      resolve({ error: (error as Error).message });
      return;
    }
    let settled = false;
    const settle = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const client = target.protocol === 'https:' ? https : http;
    const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
    const options = { method: 'POST', headers, agent: agents[target.protocol as 'http:' | 'https:'], lookup: lookupFor(port) };
    const request = client.request(target, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size < MAX_RESPONSE_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on('end', () => settle({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8') }));
      response.on('error', (error: Error & { code?: string }) => settle({ error: error.code ?? error.message }));
    });
    const timer = setTimeout(() => {
      settle({ error: 'timeout' });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: Error & { code?: string }) =>
      settle(error.code === OUTBOUND_REFUSED ? { refused: error.message } : { error: error.code ?? error.message }),
    );
    request.end(body);
  });
}
