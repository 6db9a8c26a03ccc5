import { changesSessionHeadline, evolveHeadline, PREVIEW_MAX, plainText, type SessionHeadline, shorten, TITLE_MAX } from './session-headline';

const none: SessionHeadline = { title: null, preview: null };
const sent = (prompt: string) => ({ type: 'session.message_sent', data: { prompt } });
const cli = (type: string, payload: Record<string, unknown>, agentId?: string) => ({
  type: `cli.${type}`,
  data: { payload, ...(agentId ? { agentId } : {}) },
});
const fold = (events: Array<{ type: string; data: unknown }>) => events.reduce(evolveHeadline, none);

describe('session headline', () => {
  it('titles a session by its first message and previews its last', () => {
    const headline = fold([
      sent('Review main.ts for bugs'),
      cli('assistant.message', { content: 'Found **two** issues in `main.ts`.' }),
      sent('Fix the first one'),
    ]);
    expect(headline).toEqual({ title: 'Review main.ts for bugs', preview: 'Fix the first one' });
  });

  it("takes the CLI's title over the first message, and keeps it when more messages come", () => {
    const headline = fold([
      sent('please could you look at main.ts and tell me what is wrong'),
      cli('session.title_changed', { title: 'Bugs in main.ts' }),
      sent('and the tests too'),
      cli('assistant.message', { content: 'Done.' }),
    ]);
    expect(headline).toEqual({ title: 'Bugs in main.ts', preview: 'Done.' });
  });

  it("leaves out a sub-agent's messages and titles, and assistant messages that only call tools", () => {
    const before = fold([sent('Start')]);
    for (const event of [
      cli('assistant.message', { content: 'child words' }, 'task-1'),
      cli('assistant.message', { content: 'child words', parentToolCallId: 'call_1' }),
      cli('session.title_changed', { title: 'child title' }, 'task-1'),
      cli('assistant.message', { content: '', toolRequests: [{ name: 'view' }] }),
      cli('assistant.message_delta', { deltaContent: 'x' }),
      cli('session.idle', {}),
    ]) {
      expect(changesSessionHeadline(event)).toBe(false);
      expect(evolveHeadline(before, event)).toBe(before);
    }
    expect(changesSessionHeadline(cli('assistant.message', { content: 'mine' }))).toBe(true);
  });

  it('reads markdown as one line of plain words', () => {
    expect(plainText('## Summary\n\n- **one** thing\n- `two`\n\n```ts\nconst x = 1;\n```\n> quoted')).toBe('Summary one thing two const x = 1; quoted');
  });

  it('shortens at a word with an ellipsis, within the limits', () => {
    const long = 'word '.repeat(100).trim();
    const headline = fold([sent(long)]);
    expect(Array.from(headline.title!).length).toBeLessThanOrEqual(TITLE_MAX);
    expect(Array.from(headline.preview!).length).toBeLessThanOrEqual(PREVIEW_MAX);
    expect(headline.title).toMatch(/^word( word)*…$/);
    expect(shorten('short', 10)).toBe('short');
    // No word break near the end: cut mid-word rather than keep almost nothing.
    expect(shorten('a '.concat('x'.repeat(50)), 10)).toBe('a xxxxxxx…');
  });

  it('never splits a character made of two UTF-16 units', () => {
    expect(shorten('😀'.repeat(20), 5)).toBe('😀😀😀😀…');
  });
});
