import { KNOWN_BUILTIN_TOOLS, toolNamesOf } from './builtin-tools';

describe('toolNamesOf', () => {
  it("reads the names of a tools.list answer and nothing that is not a tool's name", () => {
    expect(toolNamesOf({ tools: [{ name: 'bash', description: 'Runs' }, { name: 'view' }, { name: 42 }, { name: 'bad name<script>' }, null] })).toEqual([
      'bash',
      'view',
    ]);
    expect(toolNamesOf({})).toEqual([]);
    expect(toolNamesOf(null)).toEqual([]);
  });
});

describe('KNOWN_BUILTIN_TOOLS', () => {
  it('offers no test tool from a capture and has ask_user', () => {
    expect(KNOWN_BUILTIN_TOOLS).not.toContain('lookup_secret');
    expect(KNOWN_BUILTIN_TOOLS).toContain('ask_user');
  });
});
