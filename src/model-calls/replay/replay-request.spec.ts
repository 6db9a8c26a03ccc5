import * as os from 'node:os';
import { DIVERGENCE_TEXT_MAX, firstDivergence, normalizedText, requestPartsOf, withForkChanges } from './replay-request';

/** A chat request as the CLI sends it: its system prompt names the session's folder, each user prompt the time. */
function cliRequest(over: { sessionId?: string; at?: string; tmp?: string; system?: string; tools?: string[]; messages?: object[]; model?: string } = {}) {
  const sessionId = over.sessionId ?? '17936625-201f-4493-995c-745f78e19156';
  const tmp = over.tmp ?? `${os.tmpdir()}/switchboard-test-YfoeGx`;
  return JSON.stringify({
    model: over.model ?? 'gpt-4.1',
    messages: [
      {
        role: 'system',
        content: `${over.system ?? 'You are GitHub Copilot.'}\nSession folder: ${tmp}/copilot-home/.copilot/session-state/${sessionId}\n`,
      },
      { role: 'user', content: `<current_datetime>${over.at ?? '2026-11-27T21:54:13.044+00:00'}</current_datetime>\n\nCheck please.` },
      ...(over.messages ?? []),
    ],
    tools: (over.tools ?? ['task', 'view']).map((name) => ({ type: 'function', function: { name, description: `${name} tool`, parameters: {} } })),
    stream: true,
  });
}

describe('replay request comparison', () => {
  it('masks only what differs between two recordings of the same run: the session id, the current time, a temporary folder', () => {
    const then = cliRequest();
    const now = cliRequest({
      sessionId: '7d4bec33-9c06-4ed7-9df2-fa8c8e351fb9',
      at: '2026-11-28T08:01:02.500+00:00',
      tmp: `${os.tmpdir()}/switchboard-test-Ab12Cd`,
    });
    expect(then).not.toBe(now);
    expect(firstDivergence(then, now)).toBeUndefined();
    expect(normalizedText('run sub-agent-01a21f06-5dca-77e2-bca1-6d05fb283da0 at 2026-11-27T22:01:06.856Z')).toBe('run sub-agent-<id> at <datetime>');
  });

  it('keeps a path that is not a temporary folder, and anything else, as it is', () => {
    expect(normalizedText('/home/me/project and 42 and check-1')).toBe('/home/me/project and 42 and check-1');
  });

  it('names a changed system prompt with both versions, shown from just before the change when long', () => {
    const long = 'x'.repeat(10_000);
    const divergence = firstDivergence(cliRequest({ system: `${long} LEAD you lead.` }), cliRequest({ system: `${long} LEAD you lead, EDITED.` }));
    expect(divergence).toMatchObject({ part: 'system', at: 'character 10014' });
    expect(divergence?.original).toContain('LEAD you lead.');
    expect(divergence?.now).toContain('LEAD you lead, EDITED.');
    expect(divergence?.original?.length).toBeLessThanOrEqual(DIVERGENCE_TEXT_MAX);
  });

  it('names the first differing part in order: model, system, tools (by name), then the message by index', () => {
    expect(firstDivergence(cliRequest(), cliRequest({ model: 'gpt-5', system: 'other' }))).toMatchObject({
      part: 'model',
      original: 'gpt-4.1',
      now: 'gpt-5',
    });
    const tools = firstDivergence(cliRequest(), cliRequest({ tools: ['task', 'view', 'shell'] }));
    expect(tools).toMatchObject({ part: 'tools', at: 'shell' });
    expect(tools).not.toHaveProperty('original');
    expect(tools?.now).toContain('shell tool');
    expect(firstDivergence(cliRequest(), cliRequest({ tools: ['view', 'task'] }))).toMatchObject({ part: 'tools', at: 'order' });
    const result = (content: string) => [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1_task', type: 'function', function: { name: 'task', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1_task', content },
    ];
    const messages = firstDivergence(cliRequest({ messages: result('CHECKED_OK') }), cliRequest({ messages: result('FAILED') }));
    expect(messages).toMatchObject({ part: 'messages', at: '2' });
    expect(messages?.original).toContain('CHECKED_OK');
    expect(messages?.now).toContain('FAILED');
    expect(firstDivergence(cliRequest({ messages: result('A') }), cliRequest())).not.toHaveProperty('now');
  });

  it('reads the system prompt of an Anthropic request and the instructions of a responses request', () => {
    expect(requestPartsOf(JSON.stringify({ model: 'claude', system: 'S', messages: [{ role: 'user', content: 'hi' }] }))).toMatchObject({
      system: 'S',
      messages: ['{"role":"user","content":"hi"}'],
    });
    expect(requestPartsOf(JSON.stringify({ model: 'o', instructions: 'I', input: [{ role: 'user', content: 'hi' }] }))?.system).toBe('I');
    expect(firstDivergence('not json', 'not json')).toBeUndefined();
    expect(firstDivergence('not json', 'other')).toMatchObject({ part: 'messages' });
  });
});

describe('withForkChanges', () => {
  it('appends the message as a user message, replaces the system prompt and the model', () => {
    const changed = JSON.parse(withForkChanges(cliRequest(), { message: 'Try again.', prompt: 'NEW PROMPT', model: 'gpt-5' })) as {
      model: string;
      messages: { role: string; content: string }[];
      stream: boolean;
    };
    expect(changed.model).toBe('gpt-5');
    expect(changed.messages[0]).toEqual({ role: 'system', content: 'NEW PROMPT' });
    expect(changed.messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(changed.messages.at(-1)).toEqual({ role: 'user', content: 'Try again.' });
    expect(changed.stream).toBe(true);
  });

  it('leaves a request without changes, or one that is not JSON, as it was', () => {
    const body = cliRequest();
    expect(withForkChanges(body, {})).toBe(body);
    expect(withForkChanges('not json', { message: 'x' })).toBe('not json');
    const anthropic = JSON.parse(withForkChanges(JSON.stringify({ system: 'S', messages: [] }), { prompt: 'P' })) as { system: string };
    expect(anthropic.system).toBe('P');
  });
});
