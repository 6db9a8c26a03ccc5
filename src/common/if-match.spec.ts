import { InvalidInputError } from './domain-error';
import { expectedVersionOf } from './if-match';

describe('expectedVersionOf', () => {
  it('reads a version with or without quotes and a weak marker, and nothing without the header', () => {
    expect(expectedVersionOf('3', 'an agent')).toBe(3);
    expect(expectedVersionOf('"7"', 'an agent')).toBe(7);
    expect(expectedVersionOf('W/"12"', 'a schedule')).toBe(12);
    expect(expectedVersionOf(undefined, 'a schedule')).toBeUndefined();
  });

  it.each(['0', '-1', '1.5', 'abc', '*'])('refuses %s with a 400 naming what it must be', (header) => {
    expect(() => expectedVersionOf(header, 'a schedule')).toThrow(InvalidInputError);
    expect(() => expectedVersionOf(header, 'a schedule')).toThrow(`If-Match must be a schedule version number (got ${header})`);
  });
});
