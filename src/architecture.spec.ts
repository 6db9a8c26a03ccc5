import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { type ReadTableName, TABLE_OWNERS } from './database';

/**
 * The module picture stays one-way: no source-level cycle between the top-level folders of `src/`
 * (one per context). Type-only imports count too: a cycle in types is a cycle in the design.
 */
const SRC = __dirname;
/** Files directly in `src/` (app module, bootstrap) wire every context together; they are not one. */
const ROOT = '(src)';

/** Every relative specifier a file imports or re-exports, static or dynamic. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.[^'"]*)['"]/gm;

function sourceFiles(dir: string, withSpecs = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, withSpecs);
    return entry.name.endsWith('.ts') && (withSpecs || !entry.name.endsWith('.spec.ts')) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function contextOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0] : ROOT;
}

/** The context an import resolves to: `'../sessions'` (a context's entry folder) is the sessions context. */
function targetContext(target: string): string {
  const parts = relative(SRC, target).split(sep);
  return parts.length === 1 && !existsSync(`${target}.ts`) ? parts[0] : contextOf(target);
}

/** Context → the contexts it imports, from the source text. */
export function contextGraph(files: readonly string[], read: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = contextOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of read(file).matchAll(IMPORT)) {
      const to = targetContext(resolve(dirname(file), specifier));
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

/** One cycle as a path that starts and ends at the same context, or undefined. */
export function findCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return undefined;
}

/**
 * Folders inside a context whose own `index.ts` is an entry file too: the two dialect schemas export the
 * same table names, so `database/index.ts` cannot hold both. (Kept in step with the entry-files codemod.)
 */
const SUB_ENTRIES = ['database/schema', 'database/schema-pg'];

/**
 * Each import of another context's inner file, as `file:line imports x/inner: import it from x/index.ts`,
 * and each import of a file's own context entry (which would load the context into itself half-built).
 * Specs count too; `test/` and jest.mock paths (mocking one file is about that file) do not.
 */
export function entryViolations(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) => {
    const text = read(file);
    const from = contextOf(file);
    return [...text.matchAll(IMPORT)].flatMap((match) => {
      const target = resolve(dirname(file), match[1]);
      const to = targetContext(target);
      const at = `${relative(SRC, file)}:${text.slice(0, match.index + match[0].indexOf(match[1])).split('\n').length}`;
      const inner = relative(join(SRC, to), target).split(sep).join('/');
      const isContextEntry = inner === '' || inner === 'index';
      if (to === ROOT || to === '..') return [];
      if (to === from) return isContextEntry && relative(SRC, file) !== join(to, 'index.ts') ? [`${at} imports its own entry ${to}/index.ts`] : [];
      const path = relative(SRC, target).split(sep).join('/');
      if (isContextEntry || SUB_ENTRIES.some((sub) => path === sub || path === `${sub}/index`)) return [];
      const sub = SUB_ENTRIES.find((folder) => path.startsWith(`${folder}/`));
      return [`${at} imports ${to}/${inner}: import it from ${sub ?? to}/index.ts`];
    });
  });
}

/** A read-model table named in a file: where, and how. */
export interface TableAccess {
  table: ReadTableName;
  line: number;
}

const TABLE_NAMES = new Set<string>(Object.keys(TABLE_OWNERS));
const isTableName = (name: string): name is ReadTableName => TABLE_NAMES.has(name);
// `tables` holds each table's one description, which both schemas build: naming it counts as naming the table.
const SCHEMA_DIRS = [join(SRC, 'database', 'schema'), join(SRC, 'database', 'schema-pg'), join(SRC, 'database', 'tables')];

/**
 * Every read-model table a file names, found in its syntax tree: `db.tables.runs`, `tables['runs']`,
 * `const { runs } = this.db.tables`, a table imported from `database/schema(-pg)` or its description
 * from `database/tables` (named, or through a namespace import), and row types such as `ReadTables['runs']`.
 */
export function tableAccesses(file: string, text: string): TableAccess[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: TableAccess[] = [];
  const namespaces = new Set<string>();
  const add = (name: string, node: ts.Node) => {
    if (isTableName(name)) found.push({ table: name, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  };
  const fromSchema = (specifier: string) => {
    if (!specifier.startsWith('.')) return false;
    const target = resolve(dirname(file), specifier);
    return SCHEMA_DIRS.some((dir) => target === dir || target.startsWith(dir + sep));
  };
  // What holds the tables: `tables`, `<anything>.tables`, a namespace import of the schema.
  const isTables = (node: ts.Expression): boolean =>
    (ts.isIdentifier(node) && (node.text === 'tables' || namespaces.has(node.text))) ||
    (ts.isPropertyAccessExpression(node) && node.name.text === 'tables');
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && fromSchema(node.moduleSpecifier.text)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings)) for (const element of bindings.elements) add((element.propertyName ?? element.name).text, element);
    } else if (ts.isPropertyAccessExpression(node) && isTables(node.expression)) {
      add(node.name.text, node);
    } else if (ts.isElementAccessExpression(node) && isTables(node.expression) && ts.isStringLiteralLike(node.argumentExpression)) {
      add(node.argumentExpression.text, node);
    } else if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer && isTables(node.initializer)) {
      for (const element of node.name.elements) {
        const key = element.propertyName ?? element.name;
        if (ts.isIdentifier(key) || ts.isStringLiteral(key)) add(key.text, element);
      }
    } else if (
      ts.isIndexedAccessTypeNode(node) &&
      ts.isTypeReferenceNode(node.objectType) &&
      node.objectType.typeName.getText(source) === 'ReadTables' &&
      ts.isLiteralTypeNode(node.indexType) &&
      ts.isStringLiteral(node.indexType.literal)
    ) {
      add(node.indexType.literal.text, node);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * A file may touch a table when its context owns it; the context whose projection writes a table it
 * does not own may touch it in its projections only. `database` (schema, bindings) is the store itself.
 */
export function mayTouch(file: string, table: ReadTableName): boolean {
  const context = contextOf(file);
  const { owner, writtenBy } = TABLE_OWNERS[table];
  if (context === 'database' || context === owner) return true;
  return context === writtenBy && relative(join(SRC, context), file).split(sep).includes('projections');
}

/** Each access a file makes to another context's table, as `file:line table (owner: context)`. */
export function tableViolations(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) =>
    tableAccesses(file, read(file))
      .filter(({ table }) => !mayTouch(file, table))
      .map(
        ({ table, line }) =>
          `${relative(SRC, file)}:${line} ${table} (owner: ${TABLE_OWNERS[table].owner}${TABLE_OWNERS[table].port ? `, ask ${TABLE_OWNERS[table].port}` : ''})`,
      ),
  );
}

/**
 * Where a file appends to a session's stream itself: an `append`/`appendMany` call, or a `streamId:`
 * of a `StreamAppend`, given `sessionStreamId(...)` directly or through a name the file bound to one
 * (`const stream = sessionStreamId(id)`, `refusalStream: sessionStreamId(id)`). Outside src/sessions
 * those go through the sessions context's SessionStreamAppends port instead.
 */
export function sessionStreamWrites(file: string, text: string): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const isSessionStreamCall = (node: ts.Node): boolean =>
    ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'sessionStreamId';
  // Names bound to a session stream id anywhere in the file.
  const bound = new Set<string>();
  const collect = (node: ts.Node): void => {
    if (
      (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      isSessionStreamCall(node.initializer)
    ) {
      bound.add(node.name.text);
    }
    ts.forEachChild(node, collect);
  };
  collect(source);
  const namesSessionStream = (node: ts.Node): boolean => {
    if (isSessionStreamCall(node)) return true;
    if (ts.isIdentifier(node) && bound.has(node.text)) return true;
    if (ts.isPropertyAccessExpression(node) && bound.has(node.name.text)) return true;
    return ts.forEachChild(node, (child) => (namesSessionStream(child) ? true : undefined)) ?? false;
  };
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    const appendCall =
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ['append', 'appendMany'].includes(node.expression.name.text) &&
      node.arguments.some(namesSessionStream);
    const streamPart =
      ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'streamId' && namesSessionStream(node.initializer);
    if (appendCall || streamPart) lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/**
 * issue 40: each context's event types, read off its `*.events.ts`: the string values of the object
 * constants it exports there (`RunEvents`, `CliRecords`, …), each with the context that owns it.
 */
export function eventTypeOwners(files: readonly string[], read: (file: string) => string): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of files.filter((f) => f.endsWith('.events.ts'))) {
    const source = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement) || !statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      for (const declaration of statement.declarationList.declarations) {
        let value = declaration.initializer;
        while (value && (ts.isAsExpression(value) || ts.isSatisfiesExpression(value))) value = value.expression;
        if (!value || !ts.isObjectLiteralExpression(value)) continue;
        for (const property of value.properties) {
          if (ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)) owners.set(property.initializer.text, contextOf(file));
        }
      }
    }
  }
  return owners;
}

/**
 * Where a file names another context's event type by its string (`'run.started'`, in code or in a
 * type): such a read bypasses the owner's exported constants, readers and payload types, so a change
 * there goes unnoticed. Comments are not code: they may name anything.
 */
export function foreignEventTypeLiterals(file: string, text: string, owners: ReadonlyMap<string, string>): string[] {
  const context = contextOf(file);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const owner = owners.get(node.text);
      if (owner !== undefined && owner !== context) {
        found.push(`${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} '${node.text}' (owner: ${owner})`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Files that still name foreign event types, and why. Each entry must still need it (a stale one fails):
 * the list only shrinks.
 */
const FOREIGN_EVENT_TYPE_EXCEPTIONS: Record<string, string> = {
  'sessions/session-stream-appends.ts':
    "the sessions port's list of the foreign types a session stream takes: their owners import sessions, and type their constants against it",
  'pauses/pause-holds.ts': 'run ends by name: delegation imports pauses, so pauses cannot import its constants',
  'model-calls/model-route.ts': 'run.stopped by name: delegation imports model-calls (the route is being split by another issue-40 part)',
  'event-log/event-log.api-answers.ts': "example events of the log's OpenAPI answers: the log shows every context's events as data",
  'sessions/workspace-checkpoints.ts':
    "the CLI's subagent.* events by name, to name the sub-agent whose tool call a checkpoint is: child-sessions imports sessions, so sessions cannot import its constants",
};

/** At most this many `as unknown as` in non-spec src: each is a seam the types cannot cross, said so in a comment above it. */
const DOUBLE_CASTS_ALLOWED = 3;

/** Each `as unknown as` in the files, as `file:line`, and whether the line above it is a comment saying why. */
export function doubleCasts(files: readonly string[], read: (file: string) => string): Array<{ at: string; commented: boolean }> {
  return files.flatMap((file) => {
    const lines = read(file).split('\n');
    return lines.flatMap((line, index) => {
      if (!line.includes('as unknown as')) return [];
      const above = (lines[index - 1] ?? '').trim();
      return [{ at: `${relative(SRC, file)}:${index + 1}`, commented: above.startsWith('//') || above.endsWith('*/') }];
    });
  });
}

describe('architecture', () => {
  it('finds a cycle and names its path (the check can fail)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
    ]);
    expect(findCycle(graph)).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set<string>()],
        ]),
      ),
    ).toBeUndefined();
  });

  it('resolves relative imports, type-only, re-exports and entry folders included, to their context', () => {
    const files = [join(SRC, 'x', 'deep', 'one.ts'), join(SRC, 'y', 'two.ts')];
    const text: Record<string, string> = {
      [files[0]]: "import type { T } from '../../y/two';\nexport { U } from '../local';",
      [files[1]]: "import { V } from '../x';\nimport { W } from '@nestjs/common';",
    };
    const graph = contextGraph(files, (file) => text[file]);
    expect(graph).toEqual(
      new Map([
        ['x', new Set(['y'])],
        ['y', new Set(['x'])],
      ]),
    );
    expect(findCycle(graph)).toEqual(['x', 'y', 'x']);
  });

  it('has no import cycle between the contexts of src/', () => {
    const graph = contextGraph(sourceFiles(SRC), (file) => readFileSync(file, 'utf8'));
    const cycle = findCycle(graph);
    if (cycle) throw new Error(`import cycle between contexts: ${cycle.join(' -> ')}`);
    expect(cycle).toBeUndefined();
  });

  describe('each context is imported through its entry file', () => {
    it('names the file, line and entry file of an import into an inner file (the check can fail)', () => {
      const files = [join(SRC, 'x', 'deep', 'one.ts'), join(SRC, 'y', 'index.ts'), join(SRC, 'y', 'two.ts'), join(SRC, 'main.ts')];
      const text: Record<string, string> = {
        [files[0]]: [
          "import { A } from '../../y';",
          "import { B } from '../../y/two';",
          "export type { C } from '../../y/index';",
          "const { D } = await import('../../database/schema-pg');",
          "type E = typeof import('../../database/schema/runs.table').runs;",
          "import { F } from '../local';",
        ].join('\n'),
        [files[1]]: "export { B } from './two';",
        [files[2]]: "import { A } from '.';\nimport { G } from '../x/deep/one';",
        [files[3]]: "import { H } from './y/two';",
      };
      expect(entryViolations(files, (file) => text[file])).toEqual([
        'x/deep/one.ts:2 imports y/two: import it from y/index.ts',
        'x/deep/one.ts:5 imports database/schema/runs.table: import it from database/schema/index.ts',
        'y/two.ts:1 imports its own entry y/index.ts',
        'y/two.ts:2 imports x/deep/one: import it from x/index.ts',
        'main.ts:1 imports y/two: import it from y/index.ts',
      ]);
    });

    it('no file of src/ imports an inner file of another context, nor its own entry', () => {
      // This spec's own examples are import lines in strings.
      const files = sourceFiles(SRC, true).filter((file) => file !== __filename);
      expect(entryViolations(files, (file) => readFileSync(file, 'utf8'))).toEqual([]);
    });
  });

  describe('read models have owners', () => {
    const file = (...parts: string[]) => join(SRC, ...parts);

    it('finds a table however a file names it', () => {
      const text = [
        "import { runs } from '../database/schema-pg';",
        "import * as schema from '../database/schema';",
        "import { sessions as s } from '../sessions/sessions-read-model';",
        'type Row = ReadTables["approvals"]["$inferSelect"];',
        'const { agents, orm } = this.db.tables;',
        'const { sessions: renamed } = tables;',
        'db.orm.select().from(db.tables.routedRequests);',
        "tables['auditLog'];",
        'schema.childSessions;',
        'tables.map((t) => t);',
        "import { pauses } from '../database/tables';",
      ].join('\n');
      expect(tableAccesses(file('x', 'y.ts'), text)).toEqual([
        { table: 'runs', line: 1 },
        { table: 'approvals', line: 4 },
        { table: 'agents', line: 5 },
        { table: 'sessions', line: 6 },
        { table: 'routedRequests', line: 7 },
        { table: 'auditLog', line: 8 },
        { table: 'childSessions', line: 9 },
        { table: 'pauses', line: 11 },
      ]);
    });

    it("fails on a read of another context's table, and lets a writing projection write", () => {
      const files = [file('instances', 'held-work.ts'), file('delegation', 'projections', 'runs.projection.ts'), file('delegation', 'run-stopper.ts')];
      const text: Record<string, string> = {
        [files[0]]: 'const { runs, instanceLeases } = this.db.tables;',
        [files[1]]: 'db.orm.insert(db.tables.runs);',
        [files[2]]: 'db.orm.select().from(db.tables.runs);',
      };
      expect(tableViolations(files, (f) => text[f])).toEqual([
        'instances/held-work.ts:1 runs (owner: run-lineage, ask RunsReadModel, LineageLookup)',
        'delegation/run-stopper.ts:1 runs (owner: run-lineage, ask RunsReadModel, LineageLookup)',
      ]);
    });

    it('no context touches a table another context owns', () => {
      expect(tableViolations(sourceFiles(SRC), (f) => readFileSync(f, 'utf8'))).toEqual([]);
    });
  });

  describe("a session's stream takes foreign events through the sessions port only", () => {
    it('finds a direct append to a session stream however the stream id is passed', () => {
      const text = [
        "this.store.append(sessionStreamId(id), 'any', [event]);",
        'const target = sessionStreamId(parent);',
        "this.store.append(target, 'any', [event]);",
        'const placement = { refusalStream: sessionStreamId(caller) };',
        "await store.append(placement.refusalStream, 'any', []);",
        "return [{ streamId: sessionStreamId(owner), expectedVersion: 'any', events }];",
        'await this.store.streamVersion(sessionStreamId(id));',
        "this.store.append(runStreamId(id), 'any', [event]);",
      ].join('\n');
      expect(sessionStreamWrites(join(SRC, 'x', 'y.ts'), text)).toEqual([1, 3, 5, 6]);
    });

    it('no file outside src/sessions appends to a session stream itself', () => {
      const outside = sourceFiles(SRC).filter((f) => contextOf(f) !== 'sessions');
      const writes = outside.flatMap((f) => sessionStreamWrites(f, readFileSync(f, 'utf8')).map((line) => `${relative(SRC, f)}:${line}`));
      expect(writes).toEqual([]);
    });
  });

  describe("no context reads another's events except through what it exports", () => {
    const ownersOf = (files: Record<string, string>) => eventTypeOwners(Object.keys(files), (f) => files[f]);

    it("finds another context's event type named by its string, in code or a type, and not in comments (the check can fail)", () => {
      const events = join(SRC, 'delegation', 'run.events.ts');
      const owners = ownersOf({ [events]: "export const RunEvents = { started: 'run.started', ended: 'run.ended' } as const;" });
      expect([...owners]).toEqual([
        ['run.started', 'delegation'],
        ['run.ended', 'delegation'],
      ]);
      const text = [
        '// a run.started comment is fine',
        "if (event.type === 'run.started') return;",
        "type Ended = { type: 'run.ended' };",
        'const ok = RunEvents.started;',
        "const other = 'run.start';",
      ].join('\n');
      expect(foreignEventTypeLiterals(join(SRC, 'pauses', 'x.ts'), text, owners)).toEqual([
        "pauses/x.ts:2 'run.started' (owner: delegation)",
        "pauses/x.ts:3 'run.ended' (owner: delegation)",
      ]);
      expect(foreignEventTypeLiterals(join(SRC, 'delegation', 'x.ts'), text, owners)).toEqual([]);
    });

    it('knows the event types of every context', () => {
      const owners = eventTypeOwners(sourceFiles(SRC), (f) => readFileSync(f, 'utf8'));
      expect(owners.get('run.started')).toBe('delegation');
      expect(owners.get('session.message_sent')).toBe('sessions');
      expect(owners.get('cli.tool.execution_start')).toBe('sessions');
      expect(owners.get('model_call.finished')).toBe('model-calls');
    });

    it("no file names another context's event type by its string (outside the listed exceptions, each still needed)", () => {
      const files = sourceFiles(SRC);
      const owners = eventTypeOwners(files, (f) => readFileSync(f, 'utf8'));
      const found = files.flatMap((f) => foreignEventTypeLiterals(f, readFileSync(f, 'utf8'), owners));
      const fileOf = (at: string) => at.slice(0, at.indexOf(':'));
      expect(found.filter((at) => !Object.hasOwn(FOREIGN_EVENT_TYPE_EXCEPTIONS, fileOf(at)))).toEqual([]);
      expect(Object.keys(FOREIGN_EVENT_TYPE_EXCEPTIONS).filter((file) => !found.some((at) => fileOf(at) === file))).toEqual([]);
    });
  });

  describe('as unknown as', () => {
    it('finds each one and whether a comment above says why (the check can fail)', () => {
      const file = join(SRC, 'x', 'y.ts');
      const text = ['// the dialect seam', 'const a = b as unknown as C;', 'const d = e as unknown as F;'].join('\n');
      expect(doubleCasts([file], () => text)).toEqual([
        { at: 'x/y.ts:2', commented: true },
        { at: 'x/y.ts:3', commented: false },
      ]);
    });

    it(`src has at most ${DOUBLE_CASTS_ALLOWED}, each with a comment above saying why`, () => {
      const casts = doubleCasts(sourceFiles(SRC), (f) => readFileSync(f, 'utf8'));
      expect(casts.filter((cast) => !cast.commented).map((cast) => cast.at)).toEqual([]);
      expect(casts.length).toBeLessThanOrEqual(DOUBLE_CASTS_ALLOWED);
    });
  });

  describe('the map stays one page', () => {
    const MAP = join(SRC, '..', 'docs', 'ARCHITECTURE.md');
    /** A page a person reads at once: the details live in docs/modules.md and the pages it links. */
    const MAX_BYTES = 25 * 1024;
    const MAX_LINE = 120;

    it(`docs/ARCHITECTURE.md is at most ${MAX_BYTES} bytes with lines of at most ${MAX_LINE} characters`, () => {
      const text = readFileSync(MAP, 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_BYTES);
      const long = text.split('\n').flatMap((line, i) => ([...line].length > MAX_LINE ? [`line ${i + 1}: ${[...line].length}`] : []));
      expect(long).toEqual([]);
    });
  });
});
