import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { type CatalogEntry, CLI_EVENTS, type ContextCatalog, EVERY_EVENT_PROJECTIONS } from './common';
import { READ_MODEL_PROJECTION } from './projections';
import { CLI_EVENT_PREFIX } from './sessions';

/**
 * "Add an event type" (docs/ARCHITECTURE.md) is enforced here: the catalog, each context's entries in
 * its `<context>.catalog.ts` (found here, none listed centrally), names every event type the code
 * appends, and what it says about each one is true of the code.
 */
const SRC = __dirname;
const ROOT = resolve(SRC, '..');

type DeciderGuard = { isEvent: (event: { type: string }) => boolean };
/** Filled from the scan before the checks run. */
let DECIDERS = new Map<string, DeciderGuard>();

/** An event type as the code spells it: dotted lowercase words (`session.message_sent`). */
const EVENT_TYPE = /^[a-z_]+(\.[a-z_]+)+$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** What the code says about events, gathered from its source and its projections. */
export interface EventFacts {
  /** `export const <Name>Events = { ... }` objects in src: name → their values. */
  eventTypeObjects: Map<string, string[]>;
  /** Literal event types the code writes in a `type:` property (`{ type: 'x.y', data }`), with where. */
  typeLiterals: Array<{ type: string; at: string }>;
  /** Every event type the code mentions outside the `*.events.ts` files and the catalog (as a literal or `XEvents.member`). */
  used: Set<string>;
  /**
   * Events the code builds to append (`{ type: XEvents.member or 'x.y', data }`), with the file: who appends
   * each type. A stored event (with a `globalPosition`) is read, not built; an event handed to `apply`/`evolve`
   * is folded into live state, not appended.
   */
  built: Array<{ type: string; file: string; at: string }>;
  /** Where each decider is declared (`export const <name>: Decider<...>`), relative to the root. */
  deciderFiles: Map<string, string>;
  /** Each projection's name and the event types it lists (undefined: it reads every event). */
  projections: Map<string, readonly string[] | undefined>;
  /** The text of a console file, or undefined when it does not exist. */
  consoleText: (file: string) => string | undefined;
}

/** The problems of a catalog against the facts; [] when it is right. */
export function catalogProblems(catalog: Readonly<Record<string, CatalogEntry>>, facts: EventFacts): string[] {
  const problems: string[] = [];
  const keyOf = (type: string) => (type.startsWith(CLI_EVENT_PREFIX) ? CLI_EVENTS : type);
  const has = (type: string) => Object.hasOwn(catalog, keyOf(type));

  const sources = new Set(Object.keys(EVENT_TYPE_SOURCES));
  for (const [name, values] of facts.eventTypeObjects) {
    if (!sources.has(name)) problems.push(`${name}: declare its entries in its context's <context>.catalog.ts (contextCatalog({ ${name} }, ...))`);
    for (const type of values) if (!has(type)) problems.push(`${type} (${name}): not in the catalog`);
  }
  for (const { type, at } of facts.typeLiterals) if (!has(type)) problems.push(`${type} (appended at ${at}): not in the catalog`);

  for (const [type, entry] of Object.entries(catalog)) {
    if (type !== CLI_EVENTS && !facts.used.has(type)) problems.push(`${type}: stale, nothing in src appends or reads it`);
    if ('decider' in entry.appendedBy) {
      const decider = DECIDERS.get(entry.appendedBy.decider);
      if (!decider) problems.push(`${type}: no decider named ${entry.appendedBy.decider} (an exported const typed Decider<...>)`);
      else if (!decider.isEvent({ type: type === CLI_EVENTS ? `${CLI_EVENT_PREFIX}x` : type })) {
        problems.push(`${type}: ${entry.appendedBy.decider} does not fold it (its isEvent guard says no)`);
      }
    } else {
      for (const [name, decider] of DECIDERS) {
        // CLI records are folded by the session decider but never decided by it.
        if (type !== CLI_EVENTS && decider.isEvent({ type })) problems.push(`${type}: ${name} folds it, so it is not foreign`);
      }
    }
    for (const projection of entry.projections) {
      if (!facts.projections.has(projection)) problems.push(`${type}: no projection named ${projection}`);
      const types = facts.projections.get(projection);
      if (types && !types.some((listed) => keyOf(listed) === type)) problems.push(`${type}: projection ${projection} does not list it in eventTypes`);
    }
    if (entry.console !== 'not shown') {
      for (const file of entry.console) {
        const text = facts.consoleText(file);
        const mention = type === CLI_EVENTS ? `'${CLI_EVENT_PREFIX}` : `'${type}'`;
        if (text === undefined) problems.push(`${type}: console file ${file} does not exist`);
        else if (!text.includes(mention)) problems.push(`${type}: console file ${file} does not mention ${mention}`);
      }
    }
  }

  for (const { type, file, at } of facts.built) {
    const entry = catalog[keyOf(type)];
    if (!entry) continue;
    if ('decider' in entry.appendedBy) {
      const home = facts.deciderFiles.get(entry.appendedBy.decider);
      if (file !== home) problems.push(`${type} (built at ${at}): only ${entry.appendedBy.decider} (${home ?? 'not found'}) builds it; decide it there`);
    } else {
      // A foreign fact is appended by the context the entry names (its first word: `delegation (on the owner session)`).
      const context = entry.appendedBy.foreign.split(' ')[0];
      if (!file.startsWith(`src/${context}/`)) problems.push(`${type} (built at ${at}): the catalog says ${context} appends it`);
    }
  }

  const everyEvent = new Set(Object.keys(EVERY_EVENT_PROJECTIONS));
  for (const [name, types] of facts.projections) {
    if (types === undefined) {
      if (!everyEvent.has(name)) problems.push(`projection ${name} reads every event: add it to EVERY_EVENT_PROJECTIONS`);
      continue;
    }
    if (everyEvent.has(name)) problems.push(`projection ${name} lists eventTypes: remove it from EVERY_EVENT_PROJECTIONS`);
    for (const listed of types) {
      const entry = catalog[keyOf(listed)];
      if (!entry) problems.push(`projection ${name} lists ${listed}, which is not in the catalog`);
      else if (!entry.projections.includes(name)) problems.push(`${keyOf(listed)}: projection ${name} lists it; name it in the entry's projections`);
    }
  }
  for (const name of everyEvent) if (!facts.projections.has(name)) problems.push(`EVERY_EVENT_PROJECTIONS names ${name}, which is no projection`);
  return problems;
}

/** The facts of one source file: its `*Events` objects, its `type:` literals, and the event types it uses. */
export function scanSource(file: string, text: string, facts: ScannedFacts): void {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const path = relative(ROOT, file);
  const declaresEvents = file.endsWith('.events.ts') || file.endsWith('.catalog.ts');
  const at = (node: ts.Node) => `${path}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const literalsIn = (node: ts.Node, found: ts.StringLiteralLike[] = []): ts.StringLiteralLike[] => {
    if (ts.isStringLiteralLike(node)) found.push(node);
    else if (ts.isConditionalExpression(node) || ts.isParenthesizedExpression(node) || ts.isAsExpression(node))
      ts.forEachChild(node, (child) => void literalsIn(child, found));
    return found;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && /Events$/.test(node.name.text) && node.initializer) {
      const init = ts.isAsExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (ts.isObjectLiteralExpression(init)) {
        const values = init.properties.flatMap((property) =>
          ts.isPropertyAssignment(property) && ts.isStringLiteralLike(property.initializer) ? [property.initializer.text] : [],
        );
        facts.eventTypeObjects.set(node.name.text, values);
      }
    }
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'type') {
      for (const literal of literalsIn(node.initializer))
        if (EVENT_TYPE.test(literal.text)) facts.typeLiterals.push({ type: literal.text, at: at(literal) });
      const built = !declaresEvents && ts.isObjectLiteralExpression(node.parent) && isBuiltEvent(node.parent) ? builtTypesOf(node.initializer) : [];
      for (const type of built) facts.built.push({ type, file: path, at: at(node) });
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.type && /^Decider\b/.test(node.type.getText(source))) {
      facts.deciderFiles.set(node.name.text, path);
    }
    if (!declaresEvents) {
      if (ts.isStringLiteralLike(node) && EVENT_TYPE.test(node.text)) facts.used.add(node.text);
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && /Events$/.test(node.expression.text)) {
        facts.used.add(`${node.expression.text}.${node.name.text}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

type ScannedFacts = Pick<EventFacts, 'eventTypeObjects' | 'typeLiterals' | 'used' | 'built' | 'deciderFiles'>;

const emptyScan = (): ScannedFacts => ({ eventTypeObjects: new Map(), typeLiterals: [], used: new Set(), built: [], deciderFiles: new Map() });

const propertyNames = (object: ts.ObjectLiteralExpression) =>
  new Set(object.properties.flatMap((property) => (property.name && ts.isIdentifier(property.name) ? [property.name.text] : [])));

/** An object literal that is a new event (`type` and `data`), neither a stored one read back nor one folded into live state. */
function isBuiltEvent(object: ts.ObjectLiteralExpression): boolean {
  const names = propertyNames(object);
  if (!names.has('data') || names.has('globalPosition')) return false;
  let node: ts.Node = object.parent;
  while (ts.isArrayLiteralExpression(node) || ts.isParenthesizedExpression(node)) node = node.parent;
  const callee = ts.isCallExpression(node) ? node.expression : undefined;
  return !(callee && ts.isPropertyAccessExpression(callee) && ['apply', 'evolve'].includes(callee.name.text));
}

/** The event types a `type:` initializer names: `XEvents.member` (resolved) or literals, through conditionals. */
function builtTypesOf(initializer: ts.Expression): string[] {
  if (ts.isParenthesizedExpression(initializer) || ts.isAsExpression(initializer)) return builtTypesOf(initializer.expression);
  if (ts.isConditionalExpression(initializer)) return [...builtTypesOf(initializer.whenTrue), ...builtTypesOf(initializer.whenFalse)];
  if (ts.isStringLiteralLike(initializer)) return EVENT_TYPE.test(initializer.text) ? [initializer.text] : [];
  if (ts.isPropertyAccessExpression(initializer) && ts.isIdentifier(initializer.expression)) {
    const values = (EVENT_TYPE_SOURCES as Record<string, Record<string, string> | undefined>)[initializer.expression.text];
    const type = values?.[initializer.name.text];
    return type ? [type] : [];
  }
  return [];
}

/** The projections of src, found as the registry finds them: classes marked `@ReadModelProjection()`. */
function projectionsOfSrc(files: readonly string[]): Map<string, readonly string[] | undefined> {
  const found = new Map<string, readonly string[] | undefined>();
  for (const file of files.filter((f) => f.endsWith('.projection.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exported = require(file) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      if (typeof value !== 'function' || Reflect.getMetadata(READ_MODEL_PROJECTION, value) !== true) continue;
      const projection = new (value as new () => { name: string; eventTypes?: readonly string[] })();
      found.set(projection.name, projection.eventTypes);
    }
  }
  return found;
}

/** `XEvents.member` references resolved to their event types, so `used` holds types only. */
function resolveUsed(facts: Pick<EventFacts, 'used'>): Set<string> {
  const resolved = new Set<string>();
  for (const item of facts.used) {
    const [object, member] = item.split('.', 2);
    const values = (EVENT_TYPE_SOURCES as Record<string, Record<string, string> | undefined>)[object];
    resolved.add(values && /Events$/.test(object) && member in values ? values[member] : item);
  }
  return resolved;
}

function factsOfSrc(): EventFacts {
  const files = SRC_FILES;
  const scanned = emptyScan();
  for (const file of files) scanSource(file, readFileSync(file, 'utf8'), scanned);
  return {
    ...scanned,
    used: resolveUsed(scanned),
    projections: projectionsOfSrc(files),
    consoleText: (file) => (existsSync(join(ROOT, file)) ? readFileSync(join(ROOT, file), 'utf8') : undefined),
  };
}

/** Every `*.catalog.ts` of src: the contexts' catalogs, merged (a type declared twice is a problem). */
function catalogOfSrc(files: readonly string[]): {
  catalog: Record<string, CatalogEntry>;
  sources: Record<string, Record<string, string>>;
  duplicates: string[];
} {
  const catalog: Record<string, CatalogEntry> = {};
  const sources: Record<string, Record<string, string>> = {};
  const duplicates: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.catalog.ts')).sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    for (const value of Object.values(require(file) as Record<string, unknown>)) {
      if (!isContextCatalog(value)) continue;
      Object.assign(sources, value.sources);
      for (const [type, entry] of Object.entries(value.entries)) {
        if (Object.hasOwn(catalog, type)) duplicates.push(`${type}: declared twice (again in ${relative(ROOT, file)})`);
        catalog[type] = entry;
      }
    }
  }
  return { catalog, sources, duplicates };
}

function isContextCatalog(value: unknown): value is ContextCatalog {
  return typeof value === 'object' && value !== null && 'sources' in value && 'entries' in value;
}

/** The deciders of src by their exported name, from the files the scan found them declared in. */
function decidersOfSrc(deciderFiles: ReadonlyMap<string, string>): Map<string, DeciderGuard> {
  const found = new Map<string, DeciderGuard>();
  for (const [name, file] of deciderFiles) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const decider = (require(join(ROOT, file)) as Record<string, DeciderGuard | undefined>)[name];
    if (decider) found.set(name, decider);
  }
  return found;
}

const SRC_FILES = sourceFiles(SRC);
const { catalog: EVENT_CATALOG, sources: EVENT_TYPE_SOURCES, duplicates: DUPLICATE_ENTRIES } = catalogOfSrc(SRC_FILES);

/** The console's copy of the catalog (`web/src/api/event-types.generated.ts`): types, streams and appenders. */
const CONSOLE_EVENT_TYPES = 'web/src/api/event-types.generated.ts';

export function consoleEventTypesSource(catalog: Readonly<Record<string, CatalogEntry>>): string {
  const appender = (entry: CatalogEntry) => ('decider' in entry.appendedBy ? entry.appendedBy.decider : entry.appendedBy.foreign);
  return [
    "// Generated from the contexts' src/**/*.catalog.ts; do not edit. `UPDATE_EVENT_TYPES=1 npx jest src/event-catalog.spec.ts` writes it",
    '// again, and that spec fails while it differs from the catalog.',
    '',
    '/** Every event type the service appends: the stream it is on and who appends it (a decider, or another context as a fact). */',
    'export const EVENT_TYPES = {',
    ...Object.entries(catalog).map(([type, entry]) => `  '${type}': { stream: '${entry.stream}', appendedBy: '${appender(entry)}' },`),
    '} as const;',
    '',
    'export type EventType = keyof typeof EVENT_TYPES;',
    '',
    `/** CLI events are kept as \`${CLI_EVENT_PREFIX}<their type>\` (the '${CLI_EVENTS}' entry). */`,
    `export const CLI_EVENT_PREFIX = '${CLI_EVENT_PREFIX}';`,
    '',
  ].join('\n');
}

describe('event catalog', () => {
  const facts = factsOfSrc();
  DECIDERS = decidersOfSrc(facts.deciderFiles);

  it("finds each context's catalog, none of them declaring a type another one does", () => {
    expect(DUPLICATE_ENTRIES).toEqual([]);
    expect(Object.keys(EVENT_TYPE_SOURCES)).toContain('ModelCallEvents');
    expect(EVENT_CATALOG['model_call.started']).toMatchObject({ appendedBy: { decider: 'modelCallDecider' } });
  });

  it('names every event type in src with its stream, decider, projections and console, and each claim is true', () => {
    expect(catalogProblems(EVENT_CATALOG, facts)).toEqual([]);
  });

  it('finds every *Events object, and the events the code appends', () => {
    expect([...facts.eventTypeObjects.keys()].sort()).toEqual(Object.keys(EVENT_TYPE_SOURCES).sort());
    expect(facts.projections.get('runs')).toContain('run.started');
    expect(facts.projections.get('audit-log')).toBeUndefined();
    expect(facts.used).toContain('subagent.completed');
  });

  it("the console's generated copy is the catalog's", () => {
    const file = join(ROOT, CONSOLE_EVENT_TYPES);
    const expected = consoleEventTypesSource(EVENT_CATALOG);
    if (process.env.UPDATE_EVENT_TYPES === '1') writeFileSync(file, expected);
    expect(existsSync(file) ? readFileSync(file, 'utf8') : `${CONSOLE_EVENT_TYPES} is missing`).toBe(expected);
  });

  it('fails on a missing, wrong or stale entry (the check can fail)', () => {
    const { 'approval.expired': _expired, ...missing } = EVENT_CATALOG;
    expect(catalogProblems(missing, facts)).toEqual([
      'approval.expired (ApprovalEvents): not in the catalog',
      'projection approvals lists approval.expired, which is not in the catalog',
      'projection trace-spans lists approval.expired, which is not in the catalog',
    ]);

    const wrong: Record<string, CatalogEntry> = {
      ...EVENT_CATALOG,
      'run.started': { stream: 'run', appendedBy: { decider: 'sessionDecider' }, projections: ['approvals'], console: ['web/src/runs/nowhere.ts'] },
      'hook.invoked': { ...EVENT_CATALOG['hook.invoked'], console: ['web/src/sessions/conversation.ts'] },
      'session.ghosted': { stream: 'session', appendedBy: { foreign: 'nobody' }, projections: [], console: 'not shown' },
    };
    expect(catalogProblems(wrong, facts)).toEqual([
      'run.started: sessionDecider does not fold it (its isEvent guard says no)',
      'run.started: projection approvals does not list it in eventTypes',
      'run.started: console file web/src/runs/nowhere.ts does not exist',
      "hook.invoked: console file web/src/sessions/conversation.ts does not mention 'hook.invoked'",
      'session.ghosted: stale, nothing in src appends or reads it',
      // The line moves with the decider's edits; the file and the rule are what this checks.
      expect.stringMatching(
        /^run\.started \(built at src\/delegation\/run\.decider\.ts:\d+\): only sessionDecider \(src\/sessions\/session\.decider\.ts\) builds it; decide it there$/,
      ),
      "run.started: projection runs lists it; name it in the entry's projections",
      "run.started: projection trace-spans lists it; name it in the entry's projections",
    ]);
  });

  it('finds a new event type written inline, and a new *Events object', () => {
    const scanned = emptyScan();
    const file = join(SRC, 'budgets', 'budget-ledger.ts');
    scanSource(
      file,
      "export const BudgetEvents = { spent: 'budget.spent' } as const;\nappend({ type: ok ? 'budget.closed' : 'budget.failed', data });",
      scanned,
    );
    expect(catalogProblems(EVENT_CATALOG, { ...facts, ...scanned, used: facts.used, deciderFiles: facts.deciderFiles })).toEqual([
      "BudgetEvents: declare its entries in its context's <context>.catalog.ts (contextCatalog({ BudgetEvents }, ...))",
      'budget.spent (BudgetEvents): not in the catalog',
      'budget.closed (appended at src/budgets/budget-ledger.ts:2): not in the catalog',
      'budget.failed (appended at src/budgets/budget-ledger.ts:2): not in the catalog',
    ]);
  });

  it('finds who builds each event, and fails on an event built outside the decider or context the catalog names', () => {
    expect(facts.deciderFiles.get('modelCallDecider')).toBe('src/model-calls/model-call.decider.ts');
    expect(facts.built).toContainEqual(expect.objectContaining({ type: 'model_call.started', file: 'src/model-calls/model-call.decider.ts' }));
    expect(facts.built).toContainEqual(expect.objectContaining({ type: 'run.ended', file: 'src/delegation/run-repository.ts' }));

    const scanned = emptyScan();
    scanSource(
      join(SRC, 'model-calls', 'model-route.ts'),
      [
        'append({ type: ModelCallEvents.started, data: started });',
        "append({ type: cancelled ? 'model_call.failed' : RunEvents.progress, data });",
        // Read back, or folded into live state: not appended here.
        "show({ globalPosition: 3, type: 'model_call.refused', data });",
        'session.apply([{ type: ModelCallEvents.finished, data }]);',
      ].join('\n'),
      scanned,
    );
    expect(catalogProblems(EVENT_CATALOG, { ...facts, built: scanned.built })).toEqual([
      'model_call.started (built at src/model-calls/model-route.ts:1): only modelCallDecider (src/model-calls/model-call.decider.ts) builds it; decide it there',
      'model_call.failed (built at src/model-calls/model-route.ts:2): only modelCallDecider (src/model-calls/model-call.decider.ts) builds it; decide it there',
      'run.progress (built at src/model-calls/model-route.ts:2): the catalog says delegation appends it',
    ]);
  });
});
