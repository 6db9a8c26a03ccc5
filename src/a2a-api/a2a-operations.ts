/**
 * issue 43: the access rule of each A2A operation (`A2a.<Operation>` in a2a-api.access.ts): reading a task
 * needs `read`, starting, answering or cancelling one `operate`. One function per binding, since JSON-RPC
 * names the operation in the body and HTTP+JSON in the method and path.
 */
const JSON_RPC_OPERATIONS: Readonly<Record<string, string>> = {
  SendMessage: 'A2a.SendMessage',
  SendStreamingMessage: 'A2a.SendMessage',
  GetTask: 'A2a.GetTask',
  SubscribeToTask: 'A2a.GetTask',
  ListTasks: 'A2a.ListTasks',
  CancelTask: 'A2a.CancelTask',
  GetExtendedAgentCard: 'A2a.GetTask',
  CreateTaskPushNotificationConfig: 'A2a.PushNotifications',
  GetTaskPushNotificationConfig: 'A2a.PushNotifications',
  ListTaskPushNotificationConfigs: 'A2a.PushNotifications',
  DeleteTaskPushNotificationConfig: 'A2a.PushNotifications',
};

/** The rule of a JSON-RPC method; undefined for a method A2A does not have (the SDK answers "method not found"). */
export function a2aOperationOfJsonRpc(method: string | undefined): string | undefined {
  return method !== undefined && Object.hasOwn(JSON_RPC_OPERATIONS, method) ? JSON_RPC_OPERATIONS[method] : undefined;
}

/** The rule of an HTTP+JSON request (`path` under the agent's URL); undefined for a route A2A does not have. */
export function a2aOperationOfRest(method: string, path: string): string | undefined {
  const route = path.split('?')[0].replace(/\/+$/, '');
  const verb = method.toUpperCase();
  if (verb === 'POST' && (route === '/message:send' || route === '/message:stream')) return 'A2a.SendMessage';
  if (verb === 'POST' && /^\/tasks\/[^/]+:cancel$/.test(route)) return 'A2a.CancelTask';
  if (/^\/tasks\/[^/]+\/pushNotificationConfigs(\/[^/]+)?$/.test(route)) return 'A2a.PushNotifications';
  if ((verb === 'GET' || verb === 'POST') && /^\/tasks\/[^/]+:subscribe$/.test(route)) return 'A2a.GetTask';
  if (verb === 'GET' && /^\/tasks\/[^/:]+$/.test(route)) return 'A2a.GetTask';
  if (verb === 'GET' && route === '/tasks') return 'A2a.ListTasks';
  if (verb === 'GET' && route === '/extendedAgentCard') return 'A2a.GetTask';
  return undefined;
}

/** Every rule an operation can need, for the access table's completeness checks. */
export const A2A_OPERATIONS: readonly string[] = [...new Set(Object.values(JSON_RPC_OPERATIONS))];
