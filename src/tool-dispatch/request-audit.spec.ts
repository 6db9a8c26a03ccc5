import { SYSTEM_ACTOR } from '../common';
import type { ToolCallRequest } from './cli-request';
import { auditable, auditEvent, auditRecords, type Requesters } from './request-audit';
import { UserInputTimeoutError } from './user-input-broker';

const parent: Requesters = { parentSessionId: 'parent-1' };
const child: Requesters = { parentSessionId: 'parent-1', childSessionId: 'child-1', agentName: 'keeper' };
const call: ToolCallRequest = { via: 'external_tool.requested', toolName: 'lookup', toolCallId: 'c1', requestId: 'r1', arguments: { key: 'k' } };

describe('request audit (what is recorded of each routed request)', () => {
  it('records a routed tool call with who asked, the arguments, the result and the latency', () => {
    expect(auditRecords.toolCallRouted(child, call, { textResultForLlm: 'ok', resultType: 'success' }, 3.5)).toEqual({
      type: 'tool_call.routed',
      data: {
        via: 'external_tool.requested',
        requestId: 'r1',
        toolCallId: 'c1',
        toolName: 'lookup',
        arguments: { key: 'k' },
        outcome: 'success',
        result: 'ok',
        reason: undefined,
        latencyMs: 3.5,
        parentSessionId: 'parent-1',
        childSessionId: 'child-1',
        agentName: 'keeper',
      },
    });
  });

  it("records a failed tool call's error as the reason", () => {
    const record = auditRecords.toolCallRouted(parent, call, { textResultForLlm: 'boom', resultType: 'failure', error: 'HTTP 500' }, 1);
    expect(record.data).toMatchObject({ outcome: 'failure', result: 'boom', reason: 'HTTP 500', childSessionId: undefined });
  });

  it('records a denied tool call with why: outside the allowlist, or not registered', () => {
    const result = { textResultForLlm: "Tool 'lookup' is not supported by this client instance.", resultType: 'failure' as const };
    expect(auditRecords.toolCallDenied(child, call, result, true, 1)).toMatchObject({
      type: 'tool_call.denied',
      data: { outcome: 'denied', result: result.textResultForLlm, reason: 'not in the allowlist of agent keeper' },
    });
    expect(auditRecords.toolCallDenied(parent, call, result, false, 1).data.reason).toBe('not registered on the session');
  });

  it('records a permission decision with the request as the CLI sent it', () => {
    const asSent = { kind: 'shell', fullCommandText: 'rm -rf /' };
    const record = auditRecords.permissionDecided(
      child,
      { via: 'permission.request', question: { kind: 'shell' }, asSent },
      { approved: false, reason: 'shell access is not allowed' },
      2,
    );
    expect(record).toEqual({
      type: 'permission.decided',
      data: expect.objectContaining({ via: 'permission.request', arguments: asSent, outcome: 'denied', reason: 'shell access is not allowed' }),
    });
  });

  it('records who decided a permission, as data and as the actor, for which agent and which tool', () => {
    const view = { via: 'permission.requested' as const, question: { kind: 'read' }, toolCallId: 'c1', asSent: { kind: 'read', path: 'a.ts' } };
    const lead = { parentSessionId: 'parent-1', sessionAgentId: 'lead' };
    // A person in the console; the built-in's name comes from its call (the question names only the kind).
    const ada = { kind: 'user' as const, id: 'idp#ada', name: 'Ada', via: 'console' as const };
    const byConsole = auditRecords.permissionDecided(
      lead,
      view,
      { approved: true, reason: 'approved by console', decidedBy: 'console', decider: ada },
      5,
      'view',
    );
    expect(byConsole.data).toMatchObject({ toolName: 'view', agentId: 'lead', decidedBy: 'console', outcome: 'approved', reason: 'approved by console' });
    // issue 27: the person who decided is the record's actor, though the CLI's request path appends it.
    expect(auditEvent(byConsole).metadata).toEqual({ actor: 'console', correlationId: 'parent-1', by: ada });
    // The policy, for a sub-agent: the sub-agent is the agent that asked.
    const byPolicy = auditRecords.permissionDecided({ ...lead, childSessionId: 'c', agentName: 'keeper' }, view, { approved: false, reason: 'no' }, 1);
    expect(byPolicy.data).toMatchObject({ agentId: 'keeper', decidedBy: 'policy' });
    expect(auditEvent(byPolicy).metadata).toMatchObject({ actor: 'policy', by: SYSTEM_ACTOR });
    // Anything else the CLI asked stays the CLI's.
    expect(auditEvent(auditRecords.hookInvoked(child, { hookType: 'preToolUse', input: {} }, 0)).metadata?.actor).toBe('copilot-cli');
  });

  it('records a hook as continued, with its type and input', () => {
    const record = auditRecords.hookInvoked(child, { hookType: 'preToolUse', input: { toolName: 'x' }, toolName: 'x' }, 0.2);
    expect(record).toEqual({
      type: 'hook.invoked',
      data: expect.objectContaining({ via: 'hooks.invoke', toolName: 'x', arguments: { hookType: 'preToolUse', input: { toolName: 'x' } } }),
    });
    expect(record.data.outcome).toBe('continued');
  });

  it("records a hook call's request id, the key of its span (issue 28), whether a webhook decided it or not", () => {
    const hook = { hookType: 'preToolUse', input: {}, requestId: 'h-1' };
    expect(auditRecords.hookInvoked(child, hook, 0).data.requestId).toBe('h-1');
    const verdict = { output: {}, outcome: 'continued', handlers: [] };
    expect(auditRecords.hookDecided(child, hook, verdict, undefined, 0).data.requestId).toBe('h-1');
  });

  it('records a question when asked, then its answer, its timeout or its cancellation', () => {
    const asked = { requestId: 'q1', sessionId: 'parent-1', question: 'Which?', choices: ['a'], allowFreeform: false, askedAt: 'now' };
    expect(auditRecords.userInputRequested(child, asked)).toEqual({
      type: 'user_input.requested',
      data: {
        via: 'userInput.request',
        parentSessionId: 'parent-1',
        childSessionId: 'child-1',
        agentName: 'keeper',
        requestId: 'q1',
        arguments: { question: 'Which?', choices: ['a'], allowFreeform: false },
        outcome: 'pending',
        latencyMs: 0,
      },
    });
    expect(auditRecords.userInputAnswered(child, 'Which?', { answer: 'a', wasFreeform: false }, 9, 'q1').data).toMatchObject({
      requestId: 'q1',
      outcome: 'answered',
      result: { answer: 'a', wasFreeform: false },
    });
    expect(auditRecords.userInputAnswered(child, 'Which?', { error: new UserInputTimeoutError('too late') }, 9, 'q1').data).toMatchObject({
      requestId: 'q1',
      outcome: 'timed_out',
      reason: 'too late',
    });
    expect(auditRecords.userInputAnswered(child, 'Which?', { error: new Error('session destroyed') }, 9).data).toMatchObject({
      outcome: 'cancelled',
      reason: 'session destroyed',
    });
  });

  it('appends a JSON copy attributed to the CLI, correlated with the parent session; undefined fields are left out', () => {
    const event = auditEvent(auditRecords.toolCallRouted(parent, call, { textResultForLlm: 'ok', resultType: 'success' }, 1));
    expect(event.metadata).toEqual({ actor: 'copilot-cli', correlationId: 'parent-1', by: SYSTEM_ACTOR });
    expect(event.data).not.toHaveProperty('reason');
    expect(event.data).not.toHaveProperty('childSessionId');
    expect(JSON.stringify(event.data)).toBe(JSON.stringify(JSON.parse(JSON.stringify(event.data))));
  });

  it('records arguments too deep or cyclic to serialise as such, keeping the rest', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const data = auditRecords.toolCallRouted(child, { ...call, arguments: cyclic }, { textResultForLlm: 'ok', resultType: 'success' }, 1).data;
    const copy = auditable(data);
    expect(copy.arguments).toMatch(/^\[not serialisable: .*circular/i);
    expect(copy).toMatchObject({ result: 'ok', toolName: 'lookup', childSessionId: 'child-1', agentName: 'keeper' });

    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const answered = auditRecords.userInputAnswered(parent, 'q', { answer: 'a', wasFreeform: true }, 1).data;
    const deepCopy = auditable({ ...answered, arguments: deep, result: deep });
    expect(deepCopy.arguments).toMatch(/^\[not serialisable: /);
    expect(deepCopy.result).toBe(deepCopy.arguments);
  });
});
