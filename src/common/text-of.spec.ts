import { textOf } from './text-of';

describe('textOf', () => {
  it('gives String(value), or the fallback for null and undefined only', () => {
    expect(textOf(undefined)).toBe('');
    expect(textOf(null, 'default')).toBe('default');
    expect(textOf('', 'default')).toBe('');
    expect(textOf('boom', 'default')).toBe('boom');
    expect(textOf(0, 'default')).toBe('0');
    expect(textOf(false)).toBe('false');
    expect(textOf({ a: 1 })).toBe('[object Object]');
    expect(textOf(['x', 'y'])).toBe('x,y');
  });
});
