import { A2A_API_ACCESS } from './a2a-api.access';
import { A2A_OPERATIONS, a2aOperationOfJsonRpc, a2aOperationOfRest } from './a2a-operations';

describe('the access rule of each A2A operation', () => {
  it('has a rule in the access table for every operation either binding can name', () => {
    for (const operation of A2A_OPERATIONS) expect(Object.keys(A2A_API_ACCESS)).toContain(operation);
  });

  it('reads JSON-RPC methods by name; a method A2A lacks (or an inherited name) has none', () => {
    expect(a2aOperationOfJsonRpc('SendStreamingMessage')).toBe('A2a.SendMessage');
    expect(a2aOperationOfJsonRpc('CancelTask')).toBe('A2a.CancelTask');
    expect(a2aOperationOfJsonRpc('ListTasks')).toBe('A2a.ListTasks');
    expect(a2aOperationOfJsonRpc('toString')).toBeUndefined();
    expect(a2aOperationOfJsonRpc(undefined)).toBeUndefined();
  });

  it('reads HTTP+JSON routes by method and path', () => {
    expect(a2aOperationOfRest('POST', '/message:send')).toBe('A2a.SendMessage');
    expect(a2aOperationOfRest('POST', '/message:stream')).toBe('A2a.SendMessage');
    expect(a2aOperationOfRest('POST', '/tasks/r1:cancel')).toBe('A2a.CancelTask');
    expect(a2aOperationOfRest('GET', '/tasks/r1?historyLength=2')).toBe('A2a.GetTask');
    expect(a2aOperationOfRest('GET', '/tasks/r1:subscribe')).toBe('A2a.GetTask');
    expect(a2aOperationOfRest('GET', '/tasks')).toBe('A2a.ListTasks');
    expect(a2aOperationOfRest('DELETE', '/tasks/r1/pushNotificationConfigs/p1')).toBe('A2a.PushNotifications');
    expect(a2aOperationOfRest('GET', '/message:send')).toBeUndefined();
    expect(a2aOperationOfRest('POST', '/admin')).toBeUndefined();
  });
});
