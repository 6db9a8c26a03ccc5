import fc from 'fast-check';
import type { AgentDefinition } from './agent-definition';
import { jsonSyntaxErrorOffset, lineOfSubAgentReference, parseAgentFile, toAgentFile } from './agent-files';

/** A file whose line 4 is broken in the given way; lines 1-3 and 5-6 are fine. */
function brokenOnLine4(line4: string): string {
  return ['{', '  "name": "Code Reviewer",', '  "description": "Reviews diffs",', line4, '  "icon": "x"', '}', ''].join('\n');
}

function problemOf(name: string, content: string) {
  const parsed = parseAgentFile({ name, content });
  if (parsed.ok) throw new Error(`expected ${name} to be refused, it parsed as ${parsed.id}`);
  return parsed.problem;
}

describe('parseAgentFile: JSON syntax errors name the file and the line', () => {
  it.each([
    ['an unquoted value', '  "model": claude,'],
    ['a missing comma', '  "model": "claude-sonnet-4"'],
    ['a missing comma in a list', '  "mcp_servers": ["github" "ado"],'],
    ['a trailing comma in a list', '  "mcp_servers": ["github",],'],
    ['an unterminated string', '  "model": "claude-sonnet-4,'],
    ['a single-quoted key', "  'model': null,"],
    ['a bad literal', '  "model": nul,'],
  ])('%s on line 4 is reported on line 4', (_what, line4) => {
    const problem = problemOf('code-reviewer.json', brokenOnLine4(line4));
    expect(problem).toMatchObject({ file: 'code-reviewer.json', line: 4 });
    expect(problem.message).toMatch(/^invalid JSON: .+ \(column \d+\)$/);
    // One line, without the piece of the file V8 quotes into its message.
    expect(problem.message).not.toMatch(/\n|is not valid JSON|Reviews diffs/);
  });

  it('says what is wrong and in which column, in one line', () => {
    expect(problemOf('a.json', brokenOnLine4('  "model": claude,'))).toEqual({
      file: 'a.json',
      line: 4,
      message: "invalid JSON: Unexpected token 'c' (column 12)",
    });
    expect(problemOf('a.json', brokenOnLine4('  "model": "x"')).message).toMatch(/^invalid JSON: Expected ',' or '}' after property value \(column 15\)$/);
    expect(problemOf('a.json', '{\n  "name": "A"\n}\n{}').message).toMatch(/^invalid JSON: Unexpected non-whitespace character after JSON \(column 1\)$/);
  });

  it('reports a file cut short at its last line, and an empty file on line 1', () => {
    const cut = '{\n  "name": "A",\n  "sub_agents": [\n    "b",\n';
    expect(problemOf('cut.json', cut)).toMatchObject({ file: 'cut.json', line: 4 });
    expect(problemOf('empty.json', '')).toMatchObject({ file: 'empty.json', line: 1 });
    expect(problemOf('blank.json', '\n\n  \n')).toMatchObject({ file: 'blank.json', line: 1 });
  });

  it('reports text after the object on its own line', () => {
    expect(problemOf('two.json', '{\n  "name": "A"\n}\n{\n  "name": "B"\n}\n')).toMatchObject({ line: 4 });
  });

  it('is not misled by "line N" or "position N" quoted from the file into the message', () => {
    const content = '{\n  "name": "A",\n  "description": "see line 9, position 99",\n  "icon": x\n}\n';
    expect(problemOf('quoted.json', content)).toMatchObject({ line: 4 });
  });

  it('counts lines of a file with Windows line endings', () => {
    expect(problemOf('crlf.json', brokenOnLine4('  "model": claude,').replace(/\n/g, '\r\n'))).toMatchObject({ line: 4 });
  });
});

describe('parseAgentFile: schema errors name the field path', () => {
  it.each([
    ['a wrong type', { name: 'A', tools: { custom: 'deploy' } }, /tools\.custom: /],
    [
      'an oversized prompt',
      { name: 'A', system_message: { content: 'x'.repeat(100_001) } },
      /system_message\.content: system_message\.content must be at most 100000 characters/,
    ],
    ['a bad sub-agent id', { name: 'A', sub_agents: ['ok', 'Not A Slug'] }, /sub_agents\.1: must be a slug/],
    ['a bad mode', { name: 'A', system_message: { mode: 'prepend', content: 'p' } }, /system_message\.mode: /],
    ['an empty name', { name: '  ' }, /name: name must not be empty/],
    ['a missing name', { description: 'd' }, /name: /],
    ['a bad id', { name: 'A', id: 'Code_Reviewer' }, /id: must be a slug/],
  ])('%s', (_what, json, message) => {
    const problem = problemOf('agent.json', JSON.stringify(json, null, 2));
    expect(problem.file).toBe('agent.json');
    expect(problem.message).toMatch(message);
  });

  it('names an unknown field', () => {
    expect(problemOf('a.json', JSON.stringify({ name: 'A', temperature: 0.2 })).message).toContain('temperature');
    expect(problemOf('a.json', JSON.stringify({ name: 'A', tools: { builtin: [], allowed: [] } })).message).toMatch(/tools.*allowed/);
  });

  it('says the root is wrong when the file is not an object', () => {
    expect(problemOf('a.json', '[1, 2]').message).toMatch(/^\(root\): /);
  });

  it('lists every bad field of the file', () => {
    const message = problemOf('a.json', JSON.stringify({ name: 3, icon: ['x'], mcp_servers: 'github' })).message;
    expect(
      message
        .split('; ')
        .map((m) => m.split(':')[0])
        .sort(),
    ).toEqual(['icon', 'mcp_servers', 'name']);
  });
});

describe('parseAgentFile: a good file', () => {
  it('derives the id from the name when the file has none, and fills defaults', () => {
    const parsed = parseAgentFile({ name: 'lead.json', content: JSON.stringify({ name: 'Engineering Lead', description: 'Leads' }) });
    expect(parsed).toEqual({
      ok: true,
      file: 'lead.json',
      id: 'engineering-lead',
      fields: {
        name: 'Engineering Lead',
        description: 'Leads',
        icon: '',
        system_message: { mode: 'append', content: '' },
        model: null,
        tools: { custom: [], builtin: [], excluded_builtin: [] },
        mcp_servers: [],
        sub_agents: [],
      },
    });
    expect(parseAgentFile({ name: 'x.json', content: JSON.stringify({ name: 'Ünïcode — Agent #2!' }) })).toMatchObject({ id: 'unicode-agent-2' });
  });

  it('keeps an id the file gives, and ignores its timestamps', () => {
    const parsed = parseAgentFile({
      name: 'x.json',
      content: JSON.stringify({ id: 'lead', name: 'Engineering Lead', created_at: 'yesterday', updated_at: 'today' }),
    });
    expect(parsed.ok && parsed.id).toBe('lead');
    expect(parsed.ok && Object.keys(parsed.fields)).not.toEqual(expect.arrayContaining(['created_at']));
    expect(parsed.ok && 'updated_at' in parsed.fields).toBe(false);
    expect(parsed.ok && 'id' in parsed.fields).toBe(false);
  });
});

describe('toAgentFile: the export format', () => {
  const agent: AgentDefinition = {
    // Deliberately out of order: the file's order must not depend on the object's.
    updated_at: '2025-02-01T00:00:00.000Z',
    sub_agents: ['code-reviewer', 'build-health-monitor'],
    tools: { custom: [], builtin: ['grep'], excluded_builtin: [] },
    id: 'engineering-lead',
    name: 'Engineering Lead',
    description: 'Leads the team',
    icon: '👨‍💻',
    system_message: { mode: 'replace', content: 'You lead.\nDelegate reviews.' },
    model: 'claude-sonnet-4',
    mcp_servers: ['github', 'ado'],
    created_at: '2025-01-01T00:00:00.000Z',
  };

  it('is <id>.json with the spec key order, two-space indent and a trailing newline', () => {
    const file = toAgentFile(agent);
    expect(file.name).toBe('engineering-lead.json');
    expect(file.content.endsWith('}\n')).toBe(true);
    expect(file.content.endsWith('\n\n')).toBe(false);
    expect(Object.keys(JSON.parse(file.content))).toEqual([
      'id',
      'name',
      'description',
      'icon',
      'system_message',
      'model',
      'tools',
      'mcp_servers',
      'sub_agents',
      'created_at',
      'updated_at',
    ]);
    expect(file.content.split('\n')[1]).toBe('  "id": "engineering-lead",');
  });

  it('is the same text for the same agent however its object was built', () => {
    // The same keys in reverse order (assigning onto existing keys keeps their order), values from the agent.
    const reordered: AgentDefinition = Object.assign(Object.fromEntries(Object.entries(agent).reverse()), agent);
    expect(Object.keys(reordered)).toEqual(Object.keys(agent).reverse());
    expect(toAgentFile(reordered)).toEqual(toAgentFile(agent));
  });

  it('round-trips through parseAgentFile to the same id and fields', () => {
    const parsed = parseAgentFile(toAgentFile(agent));
    const { id, created_at: _c, updated_at: _u, ...fields } = agent;
    expect(parsed).toEqual({ ok: true, file: 'engineering-lead.json', id, fields });
  });

  it('writes the session defaults only when set, after the hooks, and reads them back', () => {
    const withDefaults: AgentDefinition = {
      ...agent,
      delegation: false,
      permission_policy: { allow_kinds: ['read'], ask_kinds: [], ask_tools: ['agent_run'] },
      budget: { max_runs: 5 },
      workspace: { repository: '/srv/repos/shop', merge: 'manual' },
    };
    const file = toAgentFile(withDefaults);
    expect(Object.keys(JSON.parse(file.content)).slice(-6)).toEqual([
      'delegation',
      'permission_policy',
      'budget',
      'workspace',
      'created_at',
      'updated_at',
    ]);
    const { id, created_at: _c, updated_at: _u, ...fields } = withDefaults;
    expect(parseAgentFile(file)).toEqual({ ok: true, file: 'engineering-lead.json', id, fields });
  });

  it('reads a file written before the session defaults as an agent without them', () => {
    const parsed = parseAgentFile({ name: 'old.json', content: JSON.stringify({ id: 'old', name: 'Old', sub_agents: [] }) });
    expect(parsed.ok && parsed.fields).not.toHaveProperty('delegation');
    expect(parsed.ok && parsed.fields).not.toHaveProperty('permission_policy');
    expect(parsed.ok && parsed.fields).not.toHaveProperty('budget');
  });

  it('refuses a permission kind or a budget limit the format does not know', () => {
    const bad = parseAgentFile({
      name: 'bad.json',
      content: JSON.stringify({ name: 'Bad', permission_policy: { ask_kinds: ['root'] }, budget: { max_tokens: 0 } }),
    });
    expect(bad.ok).toBe(false);
    const message = bad.ok ? '' : bad.problem.message;
    expect(message).toMatch(/permission_policy\.ask_kinds\.0/);
    expect(message).toMatch(/budget\.max_tokens/);
  });
});

describe('jsonSyntaxErrorOffset', () => {
  it('agrees with JSON.parse on whether any JSON text is valid', () => {
    fc.assert(
      fc.property(fc.json(), fc.constantFrom(0, 2, '\t'), (text, indent) => {
        const pretty = JSON.stringify(JSON.parse(text), null, indent);
        expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
        expect(jsonSyntaxErrorOffset(pretty)).toBeUndefined();
      }),
    );
  });

  it('agrees with JSON.parse on broken texts, and points inside them', () => {
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', 'x', '\n', ':', '\\', '\u0001'), (text, at, insert) => {
        const i = at % (text.length + 1);
        const mutated = text.slice(0, i) + insert + text.slice(i);
        let valid = true;
        try {
          JSON.parse(mutated);
        } catch {
          valid = false;
        }
        const offset = jsonSyntaxErrorOffset(mutated);
        if (valid) expect(offset).toBeUndefined();
        else {
          expect(offset).toBeGreaterThanOrEqual(0);
          expect(offset).toBeLessThanOrEqual(mutated.length);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('lineOfSubAgentReference', () => {
  const content = [
    '{',
    '  "name": "Lead",',
    '  "description": "mentions \\"ghost\\" and \\"sub_agents\\": early",',
    '  "sub_agents": [',
    '    "ok",',
    '    "ghost"',
    '  ]',
    '}',
  ].join('\n');

  it('finds the line of the id inside the sub_agents list, not a mention elsewhere', () => {
    expect(JSON.parse(content).sub_agents).toEqual(['ok', 'ghost']);
    expect(lineOfSubAgentReference(content, 'ghost')).toBe(6);
    expect(lineOfSubAgentReference(content, 'ok')).toBe(5);
  });

  it('is undefined when the file has no such reference', () => {
    expect(lineOfSubAgentReference(content, 'other')).toBeUndefined();
    expect(lineOfSubAgentReference('{"name": "A"}', 'ghost')).toBeUndefined();
  });
});
