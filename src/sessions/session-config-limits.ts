import { assertStorableJson, MAX_STORED_DOCUMENT_BYTES, MAX_STORED_FIELD_BYTES } from '../common';
import type { CreateSessionRequest } from './session-config';

/**
 * What a session may store, checked whichever way the request came (REST, GraphQL over HTTP or
 * WebSocket, a run): each free-form JSON value (a tool's JSON schema, an agent's mcpServers) and the
 * whole configuration, each at most MAX_JSON_DEPTH deep (400) and within its size (413), named by field.
 */
export function assertStorableSessionRequest(request: CreateSessionRequest): void {
  request.tools.forEach((tool, i) => assertStorableJson(['tools', i, 'parameters'], tool.parameters, MAX_STORED_FIELD_BYTES));
  request.customAgents.forEach((agent, i) => {
    if (agent.mcpServers !== undefined) assertStorableJson(['customAgents', i, 'mcpServers'], agent.mcpServers, MAX_STORED_FIELD_BYTES);
  });
  assertStorableJson(['config'], request, MAX_STORED_DOCUMENT_BYTES);
}
