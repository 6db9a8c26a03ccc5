import {
  CAPTURED_PARENT,
  CAPTURED_TASK,
  capturedExternalToolRequested,
  capturedPermissionAnswer,
  capturedPermissionRequested,
  capturedToolCallAnswer,
} from '../../test/fixtures/cli-wire-captures';
import type { CliSessionEvent } from '../copilot-cli';
import * as v3 from './protocol-v3-adapter';

const broadcast = (type: string, data: Record<string, unknown> | undefined, agentId?: unknown): CliSessionEvent =>
  ({ sessionId: 'parent-1', event: { type, data, ...(agentId === undefined ? {} : { agentId }) } }) as CliSessionEvent;

describe('protocol 3 adapter (broadcasts on the parent stream, answered by a request back)', () => {
  describe('requesterOf', () => {
    it("names the sub-agent's task id from the envelope (captured frame)", () => {
      expect(v3.requesterOf(capturedExternalToolRequested)).toEqual({ id: CAPTURED_TASK });
    });

    it("is the parent's own request when the envelope has no agentId", () => {
      expect(v3.requesterOf(broadcast('external_tool.requested', { requestId: 'r' }))).toEqual({ id: 'parent-1' });
    });

    it.each<[string, unknown, string]>([
      ['a number', 42, 'unknown session 42'],
      ['an empty string', '', 'unknown session ""'],
      ['an object', { id: 'x' }, 'unknown session {"id":"x"}'],
      ['null', null, 'unknown session null'],
    ])('refuses an agentId that is %s with the spec text, never taking it for the main agent', (_name, agentId, error) => {
      expect(v3.requesterOf(broadcast('external_tool.requested', { requestId: 'r' }, agentId))).toEqual({ error });
    });
  });

  describe('external_tool.requested', () => {
    it('reads the captured call of the custom tool', () => {
      expect(v3.toolCall(capturedExternalToolRequested)).toEqual({
        via: 'external_tool.requested',
        toolName: 'lookup_secret',
        toolCallId: 'call_2_lookup_secret',
        requestId: '67fe38c0-0510-49d1-9682-c7f7b71cccfb',
        arguments: { key: 'alpha' },
      });
    });

    it('drops a broadcast without a requestId (nothing to answer under)', () => {
      expect(v3.toolCall(broadcast('external_tool.requested', { toolName: 'lookup' }))).toBeUndefined();
      expect(v3.toolCall(broadcast('external_tool.requested', { requestId: 5 }))).toBeUndefined();
      expect(v3.toolCall(broadcast('external_tool.requested', undefined))).toBeUndefined();
    });

    it('reads ill-typed names as empty, keeping the arguments as sent', () => {
      expect(v3.toolCall(broadcast('external_tool.requested', { requestId: 'r', toolName: 7, toolCallId: ['x'], arguments: 'raw' }))).toEqual({
        via: 'external_tool.requested',
        toolName: '',
        toolCallId: '',
        requestId: 'r',
        arguments: 'raw',
      });
    });

    it('answers with the captured method and ids, the result or the error', () => {
      const result = { textResultForLlm: 'secret(alpha)=42', resultType: 'success' as const };
      const answer = v3.toolCallAnswer(CAPTURED_PARENT, '67fe38c0-0510-49d1-9682-c7f7b71cccfb', { result });
      expect(answer).toEqual({ ...capturedToolCallAnswer, params: { ...capturedToolCallAnswer.params, result } });
      expect(v3.toolCallAnswer('p', 'r', { error: 'unknown session t' })).toEqual({
        method: 'session.tools.handlePendingToolCall',
        params: { sessionId: 'p', requestId: 'r', error: 'unknown session t' },
      });
    });
  });

  describe('permission.requested', () => {
    it('reads the captured question, keeping the request as sent for the audit', () => {
      expect(v3.permissionRequest(capturedPermissionRequested)).toEqual({
        via: 'permission.requested',
        requestId: '20acc4c1-4ff7-440a-a6e3-b88e9957d398',
        question: { kind: 'custom-tool', toolName: 'lookup_secret' },
        toolCallId: 'call_2_lookup_secret',
        asSent: capturedPermissionRequested.event.data.permissionRequest,
      });
    });

    it("reads a read request's path (the SDK's PermissionRequestRead: kind, path, intention)", () => {
      const permissionRequest = { kind: 'read', toolCallId: 'c9', path: '/proc/1/environ', intention: 'Read the environment' };
      expect(v3.permissionRequest(broadcast('permission.requested', { requestId: 'r', permissionRequest }))?.question).toEqual({
        kind: 'read',
        toolName: undefined,
        path: '/proc/1/environ',
      });
    });

    it("reads a missing or ill-typed permissionRequest as kind 'unknown'", () => {
      expect(v3.permissionRequest(broadcast('permission.requested', { requestId: 'r' }))).toEqual({
        via: 'permission.requested',
        requestId: 'r',
        question: { kind: 'unknown', toolName: undefined },
        toolCallId: undefined,
        asSent: {},
      });
      expect(v3.permissionRequest(broadcast('permission.requested', { requestId: 'r', permissionRequest: 'shell' }))).toMatchObject({
        question: { kind: 'unknown' },
        asSent: 'shell',
      });
    });

    it('drops a broadcast without a requestId', () => {
      expect(v3.permissionRequest(broadcast('permission.requested', { permissionRequest: { kind: 'shell' } }))).toBeUndefined();
    });

    it('answers an approval exactly as the captured SDK did, a refusal with its reason as feedback', () => {
      const approved = v3.permissionAnswer(CAPTURED_PARENT, '20acc4c1-4ff7-440a-a6e3-b88e9957d398', { approved: true, reason: 'own tool' });
      expect(approved).toEqual(capturedPermissionAnswer);
      expect(v3.permissionAnswer('p', 'r', { approved: false, reason: 'shell access is not allowed' })).toEqual({
        method: 'session.permissions.handlePendingPermissionRequest',
        params: { sessionId: 'p', requestId: 'r', result: { kind: 'reject', feedback: 'shell access is not allowed' } },
      });
    });
  });
});
