import { type Part } from '@a2a-js/sdk';
import { decisionOfMessage, MAX_PROMPT_CHARS, promptOfMessage, textPart } from './a2a-messages';

const data = (value: unknown): Part => ({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });

describe('an A2A message as a prompt', () => {
  it('joins text parts in order and writes a data part as JSON', () => {
    expect(promptOfMessage({ parts: [textPart('Review this'), data({ file: 'a.ts' })] })).toEqual({
      prompt: 'Review this\n\n```json\n{\n  "file": "a.ts"\n}\n```',
    });
  });

  it('refuses a file part, an empty message and one past the prompt limit, saying which', () => {
    const file: Part = {
      content: { $case: 'url', value: 'https://example.com/a.pdf' },
      metadata: undefined,
      filename: 'a.pdf',
      mediaType: 'application/pdf',
    };
    expect(promptOfMessage({ parts: [textPart('see'), file] })).toEqual({ problem: 'part 1 is a file (url): this agent reads text and data parts only' });
    expect(promptOfMessage({ parts: [textPart('   ')] })).toEqual({ problem: 'the message has no text: give at least one non-empty text part' });
    expect(promptOfMessage({ parts: [] })).toMatchObject({ problem: expect.stringContaining('no text') });
    expect(promptOfMessage({ parts: [textPart('x'.repeat(MAX_PROMPT_CHARS + 1))] })).toEqual({
      problem: `the message is ${MAX_PROMPT_CHARS + 1} characters; at most ${MAX_PROMPT_CHARS} are taken`,
    });
  });
});

describe("an A2A message as an approval's decision", () => {
  it('reads a data part {decision, reason} first', () => {
    expect(decisionOfMessage({ parts: [textPart('whatever'), data({ decision: 'deny', reason: 'not today' })] })).toEqual({
      decision: 'deny',
      reason: 'not today',
    });
  });

  it('reads the first word of the text, keeping the text as the reason', () => {
    expect(decisionOfMessage({ parts: [textPart('Approve: harmless')] })).toEqual({ decision: 'approve', reason: 'Approve: harmless' });
    expect(decisionOfMessage({ parts: [textPart('no, it deletes files')] })).toEqual({ decision: 'deny', reason: 'no, it deletes files' });
  });

  it('is undefined for text that says neither', () => {
    expect(decisionOfMessage({ parts: [textPart('maybe later')] })).toBeUndefined();
    expect(decisionOfMessage({ parts: [data({ decision: 'perhaps' })] })).toBeUndefined();
  });
});
