import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { UserInputTimeoutError } from './user-input-broker';
import * as v2 from './protocol-v2-adapter';

/** Protocol-2 requests as the spec draws them (subagent-tool-dispatch, Protocol Contract), keyed by a child's id. */
describe('protocol 2 adapter (JSON-RPC requests from the CLI and their answers)', () => {
  describe('sessionIdOf', () => {
    it('returns the id a request is keyed by, a child id included', () => {
      expect(v2.sessionIdOf({ sessionId: 'child-1', toolName: 'lookup' })).toBe('child-1');
    });

    it.each([[{}], [{ sessionId: '' }], [{ sessionId: 42 }], [{ sessionId: ['x'] }], [{ sessionId: null }]])(
      'refuses %j with InvalidParams and the exact text',
      (params) => {
        expect(() => v2.sessionIdOf(params)).toThrow(ResponseError);
        try {
          v2.sessionIdOf(params);
        } catch (error) {
          expect(error).toMatchObject({ code: ErrorCodes.InvalidParams, message: 'sessionId must be a non-empty string' });
        }
      },
    );
  });

  it("answers an unresolved id with InvalidParams carrying the resolver's text", () => {
    expect(v2.unresolved('unknown session nobody')).toMatchObject({ code: ErrorCodes.InvalidParams, message: 'unknown session nobody' });
  });

  describe('tool.call', () => {
    it("reads the call and answers with the tool's result", () => {
      expect(v2.toolCall({ sessionId: 'child-1', toolCallId: 't1', toolName: 'lookup', arguments: { key: 'k' } })).toEqual({
        via: 'tool.call',
        toolName: 'lookup',
        toolCallId: 't1',
        arguments: { key: 'k' },
      });
      const result = { textResultForLlm: 'ok:lookup', resultType: 'success' as const };
      expect(v2.toolCallAnswer(result)).toEqual({ result });
    });

    it('reads ill-typed names as empty strings, keeping the arguments as sent', () => {
      expect(v2.toolCall({ sessionId: 'c', toolName: 5, toolCallId: {}, arguments: [1, 2] })).toEqual({
        via: 'tool.call',
        toolName: '',
        toolCallId: '',
        arguments: [1, 2],
      });
    });
  });

  describe('permission.request', () => {
    it('reads the kind and the tool, keeping the request as sent for the audit', () => {
      const permissionRequest = { kind: 'custom-tool', toolName: 'lookup', toolCallId: 'c1', args: { key: 'k' } };
      expect(v2.permissionRequest({ sessionId: 'child-1', permissionRequest })).toEqual({
        via: 'permission.request',
        question: { kind: 'custom-tool', toolName: 'lookup' },
        toolCallId: 'c1',
        asSent: permissionRequest,
      });
    });

    it("reads a read request's path", () => {
      const permissionRequest = { kind: 'read', path: 'src/main.ts', intention: 'Read the entry point' };
      expect(v2.permissionRequest({ sessionId: 's', permissionRequest }).question).toEqual({ kind: 'read', toolName: undefined, path: 'src/main.ts' });
    });

    it("reads a missing, null or non-object permissionRequest as kind 'unknown'", () => {
      expect(v2.permissionRequest({ sessionId: 'c' })).toMatchObject({ question: { kind: 'unknown' }, asSent: {} });
      expect(v2.permissionRequest({ sessionId: 'c', permissionRequest: null })).toMatchObject({ question: { kind: 'unknown' }, asSent: {} });
      expect(v2.permissionRequest({ sessionId: 'c', permissionRequest: 'write' })).toMatchObject({ question: { kind: 'unknown' }, asSent: 'write' });
    });

    it("answers 'approved' or 'denied-by-rules'", () => {
      expect(v2.permissionAnswer({ approved: true, reason: 'own tool' })).toEqual({ result: { kind: 'approved' } });
      expect(v2.permissionAnswer({ approved: false, reason: 'write access is not allowed' })).toEqual({ result: { kind: 'denied-by-rules' } });
    });
  });

  describe('hooks.invoke', () => {
    it('reads the hook type, the input as sent, its tool and the child it names', () => {
      const input = { toolName: 'secret', agentId: 'child-7' };
      expect(v2.hookInvocation({ sessionId: 'parent-1', hookType: 'preToolUse', input })).toEqual({
        hookType: 'preToolUse',
        input,
        toolName: 'secret',
        agentId: 'child-7',
      });
    });

    it('reads a missing or non-object input as empty', () => {
      expect(v2.hookInvocation({ sessionId: 'c', hookType: 'x' })).toEqual({ hookType: 'x', input: {}, toolName: undefined, agentId: undefined });
      expect(v2.hookInvocation({ sessionId: 'c', input: 'raw' })).toMatchObject({ input: 'raw', toolName: undefined, agentId: undefined });
      expect(v2.hookInvocation({ sessionId: 'c', input: { agentId: '' } })).toMatchObject({ agentId: undefined });
    });

    it('answers an empty object (the CLI continues)', () => {
      expect(v2.hookAnswer()).toEqual({});
      expect(v2.hookAnswer({ permissionDecision: 'deny' })).toEqual({ output: { permissionDecision: 'deny' } });
    });
  });

  describe('userInput.request', () => {
    it('reads the question, its choices as strings and whether free text is allowed', () => {
      expect(v2.userInputRequest({ sessionId: 'c', question: 'Which colour?', choices: ['red', 2], allowFreeform: false })).toEqual({
        question: 'Which colour?',
        choices: ['red', '2'],
        allowFreeform: false,
      });
    });

    it('defaults: no question is empty, choices not a list are none, free text allowed unless exactly false', () => {
      expect(v2.userInputRequest({ sessionId: 'c', question: 3, choices: 'red', allowFreeform: 'no' })).toEqual({
        question: '',
        choices: [],
        allowFreeform: true,
      });
    });

    it('answers with the answer as given, and a missing answer with InternalError carrying the reason', () => {
      expect(v2.userInputAnswer({ answer: 'blue', wasFreeform: false })).toEqual({ answer: 'blue', wasFreeform: false });
      expect(v2.userInputFailure(new UserInputTimeoutError('No answer to "Which colour?" within 10 ms'))).toMatchObject({
        code: ErrorCodes.InternalError,
        message: 'No answer to "Which colour?" within 10 ms',
      });
    });
  });
});
