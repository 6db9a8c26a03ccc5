import * as http from 'node:http';
import * as https from 'node:https';
import { OUTBOUND_REFUSED, type OutboundUrlGuard } from './outbound-url-guard';

export interface GuardedFetchOptions {
  /** One deadline for the whole exchange (connect, headers, body). */
  timeoutMs: number;
  /** A longer answer is refused rather than kept in memory. */
  maxResponseBytes?: number;
}

export class OutboundRefusedError extends Error {
  readonly code = OUTBOUND_REFUSED;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/**
 * A `fetch` for clients that take one (the A2A SDK's): each request goes through the outbound guard, an IP
 * address before it is sent, a host name when the connection resolves it (so a DNS answer that changes after
 * a check cannot slip past; the global fetch takes no `lookup`). Built on node:http: the answer is read whole
 * (up to `maxResponseBytes`), so it suits request and answer exchanges, not streams.
 */
export function guardedFetch(guard: OutboundUrlGuard, options: GuardedFetchOptions): typeof fetch {
  const maxBytes = options.maxResponseBytes ?? 16 * 1024 * 1024;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const verdict = guard.checkWithoutDns(url.href);
    if (!verdict.allowed) throw new OutboundRefusedError(`${url.origin} is refused by the outbound guard: ${verdict.reason}`);
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string') throw new TypeError('guardedFetch sends string bodies only');
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    if (body) headers['content-length'] = String(Buffer.byteLength(body));
    const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const signal = init?.signal ?? undefined;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        request.destroy();
        reject(error);
      };
      const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new DOMException('The request was aborted', 'AbortError'));
      const request = client.request(
        url,
        { method: init?.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'], lookup: guard.lookupFor(port) },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) fail(new Error(`${url.origin} answered with more than ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          response.on('error', fail);
          response.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            const status = response.statusCode ?? 502;
            const answerHeaders = new Headers();
            for (const [name, value] of Object.entries(response.headers)) {
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answerHeaders.append(name, one);
            }
            // A null-body status (204, 304) cannot carry a body in a Response.
            const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
            resolve(new Response(payload, { status, statusText: response.statusMessage ?? '', headers: answerHeaders }));
          });
        },
      );
      const timer = setTimeout(() => fail(new Error(`${url.origin} did not answer within ${options.timeoutMs} ms`)), options.timeoutMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      request.on('error', (error: Error & { code?: string }) =>
        fail(error.code === OUTBOUND_REFUSED ? new OutboundRefusedError(`${url.origin} is refused by the outbound guard: ${error.message}`) : error),
      );
      request.end(body ?? undefined);
    });
  };
}
