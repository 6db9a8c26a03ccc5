/** Wire shapes of the Copilot CLI's JSON-RPC protocol that Switchboard relies on (see shared/reference). */

export const SUPPORTED_PROTOCOL_VERSIONS = [2, 3] as const;
export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** One `session.event` notification: the parent's id, the event, and (protocol 3) the sub-agent's task id. */
export interface CliSessionEvent {
  sessionId: string;
  event: {
    type: string;
    data: Record<string, unknown>;
    id?: string;
    /** Protocol 3: set on everything a sub-agent does; it is the sub-agent's task id. */
    agentId?: string;
    timestamp?: string;
    parentId?: string | null;
    /** The CLI marks streaming/telemetry events ephemeral; they are not kept in the log. */
    ephemeral?: boolean;
  };
}

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * The SDK's CustomAgentConfig: one `customAgents` entry of session.create / session.resume. The one
 * declaration of this wire shape: agents maps team members to it, sessions stores and sends it.
 */
export interface CustomAgentConfig {
  name: string;
  displayName?: string;
  description?: string;
  prompt: string;
  /** unset: every session tool; []: none; a list: those only. */
  tools?: string[] | null;
  mcpServers?: Record<string, unknown>;
  infer?: boolean;
  model?: string;
}

/** CustomAgentConfig as Switchboard sends it: with the full definitions of the session tools it may call. */
export interface CliCustomAgent extends CustomAgentConfig {
  toolDefinitions?: ToolDefinition[];
}

export interface ToolResult {
  textResultForLlm: string;
  resultType: 'success' | 'failure' | 'rejected' | 'denied';
  error?: string;
  toolTelemetry?: Record<string, unknown>;
}

/**
 * Requests the CLI sends to the client in protocol 2 (and `hooks.invoke` in protocol 3), and in
 * protocol 3 the model calls it hands over once the client set itself as the provider (`llmInference.*`).
 */
export const CLI_REQUEST_METHODS = [
  'tool.call',
  'permission.request',
  'hooks.invoke',
  'userInput.request',
  'llmInference.httpRequestStart',
  'llmInference.httpRequestChunk',
] as const;
export type CliRequestMethod = (typeof CLI_REQUEST_METHODS)[number];

/**
 * Whether the CLI hands every model call to Switchboard (`llmInference.setProvider` accepted), and if
 * not, why: a protocol-2 CLI, a CLI reached over TCP that already has sessions, a service without the route.
 */
export type ModelRouteState = { routed: true } | { routed: false; reason: string };

/**
 * The provider a routed session names on create / resume: its type and model tell the CLI which wire
 * shape to speak; the address is never reached (Switchboard answers every call) and no key is sent.
 */
export const MODEL_ROUTE_BASE_URL = 'http://model-route.switchboard.invalid';
