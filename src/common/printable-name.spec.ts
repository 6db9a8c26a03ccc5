import { z } from 'zod';
import { nameTextProblem, printableName } from './printable-name';

describe('printableName', () => {
  it('takes printable text in any script, emoji included', () => {
    for (const name of ['Nightly review', 'Ünïcødé', '日本語のキー', 'deploy 🚀', 'a-b_c.d']) expect(nameTextProblem(name)).toBeUndefined();
  });

  it('refuses C0 and C1 control characters and DEL, naming the character and where it is', () => {
    expect(nameTextProblem('\u0000')).toBe('must not contain control characters (U+0000 at position 1); use printable text without line breaks or tabs');
    expect(nameTextProblem('ab\ncd')).toContain('U+000A at position 3');
    expect(nameTextProblem('tab\there')).toContain('U+0009');
    expect(nameTextProblem('del\u007F')).toContain('U+007F');
    expect(nameTextProblem('c1\u0085')).toContain('U+0085');
    expect(nameTextProblem('esc\u001B[31m')).toContain('U+001B');
  });

  it('refuses a lone surrogate, leaving a pair alone', () => {
    expect(nameTextProblem('x\uD800')).toBe('must be well-formed Unicode (a lone surrogate at position 2); send valid UTF-8 text');
    expect(nameTextProblem('\uDC00y')).toContain('lone surrogate');
    expect(nameTextProblem('\uD83D\uDE80')).toBeUndefined();
  });

  it('adds the problem to a schema at the field it sits in, after its own checks', () => {
    const schema = z.object({ name: printableName(z.string().trim().min(1).max(10)) });
    const refused = schema.safeParse({ name: 'a\u0000' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([expect.objectContaining({ path: ['name'], message: expect.stringContaining('U+0000') })]);
    expect(schema.parse({ name: '  ok  ' })).toEqual({ name: 'ok' });
  });
});
