import { InvalidInputError } from '../../common';
import { pathFilter, subtreeFlag } from './workspace-changes';

describe('the query parameters of the workspace reads', () => {
  it('takes one repository-relative path, and refuses the rest as bad input (never a 500)', () => {
    expect(pathFilter('src/index.ts')).toBe('src/index.ts');
    expect(pathFilter(undefined)).toBeUndefined();
    expect(pathFilter('')).toBeUndefined();
    // ?path=a&path=b and ?path[x]=a reach the handler as an array and an object.
    for (const bad of [['a', 'b'], { x: 'a' }, '/etc/passwd', '../up', 'a/../../up']) {
      expect(() => pathFilter(bad)).toThrow(InvalidInputError);
    }
  });

  it('reads subtree as true or false only', () => {
    expect(subtreeFlag('true')).toBe(true);
    expect(subtreeFlag(undefined)).toBe(false);
    expect(() => subtreeFlag(['true', 'false'])).toThrow(InvalidInputError);
  });
});
