import { CallToolNames } from './call-tool-names';

describe('CallToolNames', () => {
  it('names a remembered call and forgets the oldest beyond its capacity', () => {
    const names = new CallToolNames(2);
    names.remember('c1', 'view');
    names.remember('c2', 'bash');
    expect(names.nameOf('c1')).toBe('view');
    names.remember('c3', 'grep');
    expect(names.nameOf('c1')).toBeUndefined();
    expect([names.nameOf('c2'), names.nameOf('c3')]).toEqual(['bash', 'grep']);
    names.remember(undefined, 'x');
    expect(names.nameOf(undefined)).toBeUndefined();
  });
});
