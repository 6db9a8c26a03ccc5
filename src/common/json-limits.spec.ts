import { InvalidInputError, PayloadTooLargeError } from './domain-error';
import { assertJsonInput, assertStorableJson, describePath, jsonInputProblem, MAX_JSON_DEPTH } from './json-limits';

const tooDeepAt = (value: unknown, maxDepth?: number) => {
  const problem = jsonInputProblem(value, maxDepth);
  if (problem) expect(problem.kind).toBe('depth');
  return problem?.path;
};

/** `depth` objects nested in one another under key `a`, the innermost holding `leaf`. */
function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('JSON limits', () => {
  describe('jsonInputProblem: nesting', () => {
    it('counts the top-level container as depth 1 and scalars as nothing', () => {
      expect(tooDeepAt(1, 0)).toBeUndefined();
      expect(tooDeepAt('x'.repeat(10), 0)).toBeUndefined();
      expect(tooDeepAt({}, 1)).toBeUndefined();
      expect(tooDeepAt({}, 0)).toEqual([]);
      expect(tooDeepAt([[]], 1)).toEqual([0]);
    });

    it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1}, with the path to the first too-deep container`, () => {
      expect(tooDeepAt(nested(MAX_JSON_DEPTH))).toBeUndefined();
      expect(tooDeepAt(nested(MAX_JSON_DEPTH + 1))).toEqual(Array(MAX_JSON_DEPTH).fill('a'));
      const mixed = { tools: [{ name: 't', parameters: nested(70) }], other: nested(3) };
      expect(tooDeepAt(mixed)?.slice(0, 4)).toEqual(['tools', 0, 'parameters', 'a']);
    });

    it('walks a hostile depth without overflowing the stack', () => {
      const deep = JSON.parse('['.repeat(200_000) + ']'.repeat(200_000));
      expect(tooDeepAt(deep)).toHaveLength(MAX_JSON_DEPTH);
    });
  });

  it('describes a path the way the zod pipe does, cut after a few segments', () => {
    expect(describePath(['tools', 0, 'parameters'])).toBe('tools.0.parameters');
    expect(describePath(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'])).toBe('a.b.c.d.e.f.g.h…');
    expect(describePath([])).toBe('(root)');
  });

  // The Copilot CLI never answers a request holding a lone surrogate: create and send hung for the whole timeout.
  it('jsonInputProblem: text that is not well-formed Unicode, in values and keys, with its path', () => {
    expect(jsonInputProblem({ tools: [{ description: 'a\ud800b' }] })).toEqual({ kind: 'unicode', path: ['tools', 0, 'description'] });
    expect(jsonInputProblem({ p: { ['\udc00']: 1 } })).toEqual({ kind: 'unicode', path: ['p', '\udc00'] });
    expect(jsonInputProblem(['ok', 'x\udbff'])).toEqual({ kind: 'unicode', path: [1] });
    expect(jsonInputProblem('\ud800')).toEqual({ kind: 'unicode', path: [] });
    expect(jsonInputProblem({ emoji: '😀 \ud83d\ude00', nul: 'a\u0000b', cjk: '界' })).toBeUndefined();
  });

  it('assertJsonInput: 400 naming where the nesting starts or the bad text is', () => {
    expect(() => assertJsonInput({ tools: [{ parameters: nested(5000) }] })).toThrow(InvalidInputError);
    expect(() => assertJsonInput({ tools: [{ parameters: nested(5000) }] })).toThrow(/^tools\.0\.parameters\.a.*: JSON nested more than 64 levels deep/);
    expect(() => assertJsonInput(nested(10), ['variables'], 5)).toThrow(/^variables\.a\.a\.a\.a\.a: /);
    expect(() => assertJsonInput(nested(64))).not.toThrow();
    expect(() => assertJsonInput({ prompt: 'hi\ud800' })).toThrow(/^prompt: text that is not well-formed Unicode \(a lone surrogate such as \\ud800\)/);
  });

  describe('assertStorableJson', () => {
    it('413 naming the field when it is larger than allowed, with both sizes', () => {
      const run = () => assertStorableJson(['tools', 2, 'parameters'], { description: 'x'.repeat(2000) }, 1024);
      expect(run).toThrow(PayloadTooLargeError);
      expect(run).toThrow(/^tools\.2\.parameters is 2\d{3} bytes as JSON; at most 1024 bytes may be stored there/);
    });

    it('counts bytes, not characters', () => {
      expect(() => assertStorableJson(['f'], 'é'.repeat(600), 1024)).toThrow(PayloadTooLargeError);
      expect(() => assertStorableJson(['f'], 'e'.repeat(600), 1024)).not.toThrow();
    });

    it('checks the depth first (JSON.stringify would overflow on a very deep value)', () => {
      expect(() => assertStorableJson(['config'], nested(20_000), 10 ** 9)).toThrow(InvalidInputError);
    });
  });
});
