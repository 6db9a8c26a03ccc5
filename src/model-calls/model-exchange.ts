import type { WireHeaders } from './upstream-request';

/** `llmInference.httpRequestStart` as the CLI sends it (protocol 3). */
export interface RequestStartFrame {
  requestId: string;
  sessionId?: string;
  method: string;
  url: string;
  headers: WireHeaders;
  agentId?: string;
  parentAgentId?: string;
  agentInvocationId?: string;
  interactionType?: string;
}

/** `llmInference.httpRequestChunk`: a piece of the body, the end of it, or the CLI cancelling the call. */
export interface RequestChunkFrame {
  requestId: string;
  data?: string;
  binary?: boolean;
  end?: boolean;
  cancel?: boolean;
  cancelReason?: string;
}

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The start frame's fields Switchboard relies on; undefined for a frame without a request id or URL (ignored). */
export function startFrameOf(params: Record<string, unknown>): RequestStartFrame | undefined {
  const { requestId, url } = params;
  if (typeof requestId !== 'string' || requestId.length === 0 || typeof url !== 'string') return undefined;
  const headers: WireHeaders = {};
  if (typeof params.headers === 'object' && params.headers !== null) {
    for (const [name, values] of Object.entries(params.headers as Record<string, unknown>)) {
      if (Array.isArray(values)) headers[name.toLowerCase()] = values.filter((v): v is string => typeof v === 'string');
      else if (typeof values === 'string') headers[name.toLowerCase()] = [values];
    }
  }
  const frame: RequestStartFrame = { requestId, url, method: optionalText(params.method) ?? 'POST', headers };
  for (const key of ['sessionId', 'agentId', 'parentAgentId', 'agentInvocationId', 'interactionType'] as const) {
    const value = optionalText(params[key]);
    if (value !== undefined) frame[key] = value;
  }
  return frame;
}

export function chunkFrameOf(params: Record<string, unknown>): RequestChunkFrame | undefined {
  const { requestId } = params;
  if (typeof requestId !== 'string' || requestId.length === 0) return undefined;
  return {
    requestId,
    ...(typeof params.data === 'string' ? { data: params.data } : {}),
    binary: params.binary === true,
    end: params.end === true,
    cancel: params.cancel === true,
    ...(typeof params.cancelReason === 'string' ? { cancelReason: params.cancelReason } : {}),
  };
}

/** One call the CLI handed over, from its first frame to the end of its answer. */
export class Exchange {
  start?: RequestStartFrame;
  readonly body: string[] = [];
  bodyEnded = false;
  forwarding = false;
  readonly abort = new AbortController();
  /** Why it was aborted: the CLI cancelled it, or its session or run ended. */
  abortedBecause?: string;
  cancelledByCli = false;

  constructor(readonly requestId: string) {}

  /** Aborts the upstream request once, keeping the first reason. */
  abortBecause(reason: string): void {
    if (this.abort.signal.aborted) return;
    this.abortedBecause = reason;
    this.abort.abort(new Error(reason));
  }
}
