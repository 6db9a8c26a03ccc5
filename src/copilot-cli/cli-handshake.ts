import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { type ProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from './cli-protocol';
import { CopilotCliUnavailableError } from './copilot-cli.errors';

export const HANDSHAKE_TIMEOUT_MS = 60_000;

/** What the handshake needs of a connection: one request and its answer. */
export type HandshakeRequest = <T>(method: string, params: unknown) => Promise<T>;

export interface Handshake {
  protocolVersion: ProtocolVersion;
  /** Only protocol 3 (`connect`) reports it. */
  cliVersion?: string;
}

/** What the handshake sends first: protocol 3 CLIs answer it, protocol 2 ones refuse it as unknown. */
export const CONNECT_PARAMS = { supportedTaskKinds: ['agent', 'client', 'shell'] } as const;
export const PING_PARAMS = { message: 'switchboard' } as const;

/**
 * `connect` (protocol 3), falling back to `ping` (protocol 2) when the CLI does not know `connect`;
 * refuses a protocol Switchboard does not speak. Any other failure of the requests is passed on.
 */
export async function negotiateProtocol(send: HandshakeRequest, timeoutMs = HANDSHAKE_TIMEOUT_MS): Promise<Handshake> {
  let version: unknown;
  let cliVersion: string | undefined;
  try {
    const answer = await withTimeout(send<{ protocolVersion?: unknown; version?: string } | null>('connect', CONNECT_PARAMS), timeoutMs);
    version = answer?.protocolVersion;
    cliVersion = typeof answer?.version === 'string' ? answer.version : undefined;
  } catch (error) {
    if (!isMethodNotFound(error)) throw error;
    // Protocol-2 CLIs do not know `connect`; they report their version from `ping`.
    const pong = await withTimeout(send<{ protocolVersion?: unknown } | null>('ping', PING_PARAMS), timeoutMs);
    version = pong?.protocolVersion;
  }
  return { protocolVersion: supportedProtocol(version), ...(cliVersion !== undefined ? { cliVersion } : {}) };
}

/** The version when Switchboard speaks it; otherwise the refusal operators see in /health and the logs. */
export function supportedProtocol(version: unknown): ProtocolVersion {
  if (SUPPORTED_PROTOCOL_VERSIONS.includes(version as ProtocolVersion)) return version as ProtocolVersion;
  throw new CopilotCliUnavailableError(
    `The Copilot CLI speaks protocol ${String(version)}; Switchboard supports protocols ${SUPPORTED_PROTOCOL_VERSIONS.join(' and ')}. Install a matching @github/copilot or set COPILOT_CLI_PATH.`,
  );
}

function isMethodNotFound(error: unknown): boolean {
  return error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound;
}

function withTimeout<T>(answer: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CopilotCliUnavailableError('The Copilot CLI did not answer the handshake')), timeoutMs);
    timer.unref();
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}
