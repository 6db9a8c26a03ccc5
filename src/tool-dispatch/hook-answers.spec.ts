import { closedOutput, failureText, isDenied, nextInput, outcomeOf, parseHookAnswer } from './hook-answers';

describe('hook answers', () => {
  describe('parseHookAnswer', () => {
    it('keeps the keys the CLI reads for the hook type, each with its type', () => {
      const raw = JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: 'no', modifiedArgs: { a: 1 }, extra: 'x' });
      expect(parseHookAnswer('preToolUse', raw)).toEqual({
        output: { permissionDecision: 'deny', permissionDecisionReason: 'no', modifiedArgs: { a: 1 } },
      });
    });

    it('drops what would reach past the session (sessionStart modifiedConfig, sessionEnd cleanupActions) and mistyped values', () => {
      expect(parseHookAnswer('sessionStart', JSON.stringify({ modifiedConfig: { tools: [] }, additionalContext: 'ctx' }))).toEqual({
        output: { additionalContext: 'ctx' },
      });
      expect(parseHookAnswer('sessionEnd', JSON.stringify({ cleanupActions: ['rm -rf /'] }))).toEqual({ output: {} });
      expect(parseHookAnswer('preToolUse', JSON.stringify({ permissionDecision: 'maybe', modifiedArgs: 'x', suppressOutput: 'yes' }))).toEqual({
        output: {},
      });
      expect(parseHookAnswer('postToolUse', JSON.stringify({ modifiedResult: { resultType: 'success' } }))).toEqual({ output: {} });
    });

    it('an empty body or {} is no opinion; a body that is not a JSON object is a failure', () => {
      expect(parseHookAnswer('preToolUse', '')).toEqual({ output: {} });
      expect(parseHookAnswer('preToolUse', '{}')).toEqual({ output: {} });
      expect(parseHookAnswer('preToolUse', 'ok')).toEqual({ error: 'answered with a body that is not JSON' });
      expect(parseHookAnswer('preToolUse', '[1]')).toEqual({ error: 'answered with JSON that is not an object' });
      expect(parseHookAnswer('preToolUse', 'null')).toEqual({ error: 'answered with JSON that is not an object' });
    });
  });

  it('names the outcome: denied beats modified beats allowed; other types answered or continued', () => {
    expect(outcomeOf('preToolUse', { permissionDecision: 'deny', modifiedArgs: {} })).toBe('denied');
    expect(outcomeOf('preToolUse', { permissionDecision: 'allow', modifiedArgs: {} })).toBe('modified');
    expect(outcomeOf('preToolUse', { permissionDecision: 'allow' })).toBe('allowed');
    expect(outcomeOf('preToolUse', {})).toBe('continued');
    expect(outcomeOf('postToolUse', { additionalContext: 'x' })).toBe('answered');
    expect(outcomeOf('sessionStart', {})).toBe('continued');
  });

  it('passes changed arguments and prompts on to the next handler', () => {
    const input = { toolName: 't', toolArgs: { a: 1 } };
    expect(nextInput('preToolUse', input, { modifiedArgs: { a: 2 } })).toEqual({ toolName: 't', toolArgs: { a: 2 } });
    expect(nextInput('preToolUse', input, {})).toBe(input);
    expect(nextInput('userPromptSubmitted', { prompt: 'p' }, { modifiedPrompt: 'q' })).toEqual({ prompt: 'q' });
  });

  it('a closed failure denies a tool call, withholds a result, and has nothing to deny for the other types', () => {
    const why = failureText('preToolUse', 'closed', 'answered HTTP 500');
    expect(why).toBe("The preToolUse hook's webhook answered HTTP 500; it fails closed, so the call was stopped.");
    expect(closedOutput('preToolUse', why)).toEqual({ permissionDecision: 'deny', permissionDecisionReason: why });
    expect(isDenied('preToolUse', closedOutput('preToolUse', why)!)).toBe(true);
    expect(closedOutput('postToolUse', why)).toEqual({ modifiedResult: { textResultForLlm: why, resultType: 'failure' } });
    expect(closedOutput('sessionStart', why)).toBeUndefined();
  });
});
