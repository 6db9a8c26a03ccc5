import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { OUTBOUND_REFUSED, OutboundUrlGuard } from '../outbound';

export const SIGNATURE_HEADER = 'x-switchboard-signature';
const MAX_RESPONSE_BYTES = 1_000_000;

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** How a webhook POST ended: an answer (any status), a transport error ('timeout' or a code), or a URL the guard refused. */
export type PostOutcome = { status: number; body: string } | { error: string } | { refused: string };

/**
 * The one way Switchboard POSTs to a URL an API caller gave (tool webhooks, hook webhooks): the
 * outbound guard (an IP at once, a host name at connect time), the HMAC signature, one deadline
 * (SWITCHBOARD_WEBHOOK_TIMEOUT_MS) for the whole exchange. Never rejects.
 */
@Injectable()
export class SignedWebhook implements OnApplicationBootstrap {
  private readonly logger = new Logger(SignedWebhook.name);
  readonly timeoutMs: number;
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

  /** `traceparent` (issue 28): the span the call belongs to, so the receiver's spans nest in the same trace. */
  async post(url: string, body: string, traceparent?: string): Promise<PostOutcome> {
    // An IP address is checked here; a host name when the connection resolves it (lookupFor).
    const verdict = this.outbound.checkWithoutDns(url);
    if (!verdict.allowed) return { refused: verdict.reason };
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (this.secret) headers[SIGNATURE_HEADER] = signBody(this.secret, body);
    if (traceparent) headers.traceparent = traceparent;
    return post(url, headers, body, this.timeoutMs, (port) => this.outbound.lookupFor(port));
  }

  /** "did not answer within N ms" / "could not be reached (CODE)" for a transport error. */
  describeError(error: string): string {
    return error === 'timeout' ? `did not answer within ${this.timeoutMs} ms` : `could not be reached (${error})`;
  }
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
