import { forkedPrompt, forkTranscript } from './fork-context';

const sent = (prompt: string) => ({ type: 'session.message_sent', data: { prompt } });
const said = (content: string, agentId?: string) => ({ type: 'cli.assistant.message', data: { payload: { content }, ...(agentId ? { agentId } : {}) } });
const limits = { maxMessages: 4, maxChars: 100, maxCharsPerMessage: 40 };

describe('forkTranscript', () => {
  it("keeps the caller's prompts and its main agent's answers, oldest first", () => {
    const transcript = forkTranscript([
      { type: 'session.created', data: { sessionId: 's' } },
      sent('Remember CODE_7.'),
      { type: 'session.reminded', data: { kind: 'runs', text: 'a reminder, not the user' } },
      { type: 'cli.user.message', data: { payload: { content: 'Remember CODE_7.' } } },
      said('Noted.'),
      said('a CLI-native sub-agent speaking', 'checker'),
      said('   '),
      { type: 'run.progress', data: { text: 'a child run' } },
      sent('Now delegate.'),
    ]);
    expect(transcript).toEqual({
      messages: [
        { role: 'user', text: 'Remember CODE_7.' },
        { role: 'assistant', text: 'Noted.' },
        { role: 'user', text: 'Now delegate.' },
      ],
      omitted: 0,
    });
  });

  it('keeps only the newest messages within the message limit and says how many it left out', () => {
    const events = Array.from({ length: 7 }, (_, i) => sent(`m${i}`));
    const transcript = forkTranscript(events, limits);
    expect(transcript.messages.map((m) => m.text)).toEqual(['m3', 'm4', 'm5', 'm6']);
    expect(transcript.omitted).toBe(3);
  });

  it('shortens a long message and stops at the character budget', () => {
    const transcript = forkTranscript([sent('x'.repeat(30)), sent('y'.repeat(30)), sent('z'.repeat(30)), sent('w'.repeat(500))], limits);
    const texts = transcript.messages.map((m) => m.text);
    expect(texts[texts.length - 1]).toMatch(/^w+ … \[shortened\]$/);
    expect(texts[texts.length - 1]).toHaveLength(40);
    expect(texts.join('').length).toBeLessThanOrEqual(100);
    expect(texts).toEqual(['y'.repeat(30), 'z'.repeat(30), texts[2]]);
    expect(transcript.omitted).toBe(1);
  });

  it('is empty for a session that said nothing yet', () => {
    expect(forkTranscript([{ type: 'session.created', data: {} }])).toEqual({ messages: [], omitted: 0 });
  });
});

describe('forkedPrompt', () => {
  it('puts the conversation before the task, with the line saying what was left out', () => {
    const prompt = forkedPrompt({ messages: [{ role: 'user', text: 'Remember CODE_7.' }], omitted: 2 }, 'What is the code?');
    expect(prompt).toContain('[2 earlier messages left out]');
    expect(prompt.indexOf('<user>\nRemember CODE_7.\n</user>')).toBeLessThan(prompt.indexOf('Your task:\nWhat is the code?'));
  });

  it('is the task alone when there is nothing to fork', () => {
    expect(forkedPrompt({ messages: [], omitted: 0 }, 'Task.')).toBe('Task.');
  });
});
