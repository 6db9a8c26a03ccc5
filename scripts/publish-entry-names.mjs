#!/usr/bin/env node
// Entry files per context (issue 40, item 1): every import from one top-level folder of `src/` (a context)
// into an inner file of another goes through that context's `index.ts`.
//
//   npm run entries:publish   (or: node scripts/publish-entry-names.mjs <repo-root> [--dry])
//
// (a) finds every cross-context import of an inner file in `src/` (specs and `src/*.ts` included; `test/`
//     is left as it is), (b) adds the imported names to the target's `index.ts` (created if missing; lines
//     already there are kept, new ones sorted, `export type` for names with no value meaning), (c) points
//     the import at the entry file, merging it with the file's other imports of that entry, (d) does the
//     same for `export ... from`, `import()`/`require()` whose names it can read, and `typeof import()`.
// Re-running it on a tree with nothing left to move changes nothing. `--dry` only counts.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const dry = process.argv.includes('--dry');
const SRC = join(root, 'src');
const ts = createRequire(join(root, 'package.json'))('typescript');

/**
 * Folders inside a context whose own `index.ts` is an entry too: the two dialect schemas export the same
 * table names, so one `database/index.ts` cannot hold both. Keep in step with src/architecture.spec.ts.
 */
const SUB_ENTRIES = ['database/schema', 'database/schema-pg'];

const HEADER = (context) =>
  `/**\n * The ${context} context's entry file: what other folders of src/ import from it, and only from here\n` +
  ` * (src/architecture.spec.ts). Files inside ${context}/ import each other directly, never this file.\n */\n`;

const posix = (path) => path.split(sep).join('/');

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The context (top-level folder of src/) of a path, or undefined for src/*.ts and anything outside src/. */
function contextOf(path) {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

/** The file a relative specifier names, or undefined when none exists. */
function resolveFile(fromFile, specifier) {
  const base = resolve(dirname(fromFile), specifier);
  return [`${base}.ts`, join(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** The entry directory a target file must be reached through, or undefined when the target is that entry. */
function entryFor(target) {
  const context = contextOf(target);
  const inner = posix(relative(join(SRC, context), target));
  const sub = SUB_ENTRIES.find((folder) => posix(relative(SRC, target)).startsWith(`${folder}/`));
  const entryDir = sub ? join(SRC, sub) : join(SRC, context);
  if (target === join(entryDir, 'index.ts')) return undefined;
  return { context, inner, entryDir, entryFile: join(entryDir, 'index.ts') };
}

function specifierTo(fromFile, dir) {
  const path = posix(relative(dirname(fromFile), dir));
  return path.startsWith('.') ? path : `./${path}`;
}

// One program over src/ for the checker: which exported names have a value meaning.
const files = walk(SRC);
const config = ts.parseJsonConfigFileContent(ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, root);
const program = ts.createProgram({ rootNames: files, options: { ...config.options, noEmit: true } });
const checker = program.getTypeChecker();

/** The symbol a module exports under a name (aliases followed), or undefined. */
function exportedSymbol(file, name) {
  const source = program.getSourceFile(file);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((candidate) => candidate.name === name);
  if (!symbol) return undefined;
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}
const hasValue = (file, name) => {
  const symbol = exportedSymbol(file, name);
  return symbol ? (symbol.flags & ts.SymbolFlags.Value) !== 0 : true;
};

const report = { before: 0, after: 0, left: [], changed: new Set() };

// ---- entry files: what each exports, read once, grown as imports move ----
/** entryFile → { names: Map<name, { from, isType }>, added: Map<fromSpecifier, Map<name, isType>>, source } */
const entries = new Map();
function entry(entryFile) {
  let state = entries.get(entryFile);
  if (state) return state;
  state = { names: new Map(), added: new Map(), lines: [], text: existsSync(entryFile) ? readFileSync(entryFile, 'utf8') : undefined };
  if (state.text !== undefined) {
    const source = ts.createSourceFile(entryFile, state.text, ts.ScriptTarget.Latest, true);
    for (const statement of source.statements) {
      if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !statement.exportClause) continue;
      if (!ts.isNamedExports(statement.exportClause)) continue;
      const from = resolveFile(entryFile, statement.moduleSpecifier.text);
      state.lines.push({
        start: statement.getStart(source),
        end: statement.getEnd(),
        from: statement.moduleSpecifier.text,
        isType: statement.isTypeOnly,
        elements: statement.exportClause.elements.map((element) => element.getText(source)),
      });
      // A line whose file moved away (another branch's change) is the lead's to fix: said, not guessed at.
      if (!from) report.left.push(`${posix(relative(root, entryFile))}: '${statement.moduleSpecifier.text}' no longer resolves`);
      for (const element of statement.exportClause.elements) {
        state.names.set(element.name.text, { from, name: (element.propertyName ?? element.name).text });
      }
    }
  }
  entries.set(entryFile, state);
  return state;
}

/** Adds `name` of `target` to its entry; false when the entry already exports another thing by that name. */
function publish(entryFile, target, name) {
  const state = entry(entryFile);
  const known = state.names.get(name);
  if (known) {
    if (known.from === target && known.name === name) return true;
    return known.from !== undefined && exportedSymbol(known.from, known.name) === exportedSymbol(target, name);
  }
  state.names.set(name, { from: target, name });
  const from = specifierTo(entryFile, target.replace(/\.ts$/, '')).replace(/\/index$/, '');
  const names = state.added.get(from) ?? new Map();
  names.set(name, !hasValue(target, name));
  state.added.set(from, names);
  return true;
}

function writeEntry(entryFile, state) {
  const context = posix(relative(SRC, dirname(entryFile)));
  const lines = [...state.added.keys()].sort().flatMap((from) => {
    const names = [...state.added.get(from)];
    const values = names
      .filter(([, isType]) => !isType)
      .map(([name]) => name)
      .sort();
    const types = names
      .filter(([, isType]) => isType)
      .map(([name]) => name)
      .sort();
    return [
      ...(values.length ? [`export { ${values.join(', ')} } from '${from}';`] : []),
      ...(types.length ? [`export type { ${types.join(', ')} } from '${from}';`] : []),
    ];
  });
  if (state.text === undefined) return `${HEADER(context)}${lines.join('\n')}\n`;
  // New names join an existing line of their file (same kind: value or type), sorted; the rest of the
  // file stays as it is, and lines for files it did not name yet follow it.
  let text = state.text;
  const rest = [];
  for (const from of [...state.added.keys()].sort()) {
    for (const [isType, names] of [
      [false, []],
      [true, []],
    ]) {
      for (const [name, nameIsType] of state.added.get(from)) if (nameIsType === isType) names.push(name);
      if (!names.length) continue;
      const line = state.lines.find((candidate) => candidate.from === from && candidate.isType === isType);
      if (!line) {
        rest.push(`export ${isType ? 'type ' : ''}{ ${names.sort().join(', ')} } from '${from}';`);
        continue;
      }
      line.elements.push(...names);
      line.text = `export ${isType ? 'type ' : ''}{ ${line.elements.sort().join(', ')} } from '${from}';`;
    }
  }
  for (const line of [...state.lines].filter((candidate) => candidate.text).sort((a, b) => b.start - a.start)) {
    text = text.slice(0, line.start) + line.text + text.slice(line.end);
  }
  return rest.length ? `${text.replace(/\s*$/, '\n')}${rest.join('\n')}\n` : text;
}

// ---- the imports of one file ----

function lineOf(source, node) {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

/** Every relative module reference in a file: the node holding the specifier and how to read its names. */
function references(source) {
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ kind: ts.isImportDeclaration(node) ? 'import' : 'export', node, literal: node.moduleSpecifier });
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length === 1 &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require') ||
        (ts.isPropertyAccessExpression(node.expression) && node.expression.getText(source) === 'jest.mock'))
    ) {
      const kind = ts.isPropertyAccessExpression(node.expression) ? 'mock' : 'dynamic';
      found.push({ kind, node, literal: node.arguments[0] });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ kind: 'type', node, literal: node.argument.literal });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((reference) => reference.literal.text.startsWith('.'));
}

/** The names a reference takes from its module ({ name, alias, isType }), or undefined when they cannot be read. */
function takenNames(reference) {
  const { kind, node } = reference;
  if (kind === 'import') {
    const clause = node.importClause;
    if (!clause || clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) return undefined;
    return clause.namedBindings.elements.map((element) => ({
      name: (element.propertyName ?? element.name).text,
      alias: element.propertyName ? element.name.text : undefined,
      isType: clause.isTypeOnly || element.isTypeOnly,
    }));
  }
  if (kind === 'export') {
    if (!node.exportClause || !ts.isNamedExports(node.exportClause)) return undefined;
    return node.exportClause.elements.map((element) => ({ name: (element.propertyName ?? element.name).text }));
  }
  if (kind === 'type') {
    const qualifier = node.qualifier;
    if (!qualifier) return undefined;
    let first = qualifier;
    while (ts.isQualifiedName(first)) first = first.left;
    return [{ name: first.text }];
  }
  if (kind === 'dynamic') {
    // `const { a, b: c } = await import('...')` (or require): the names are the pattern's keys.
    let holder = node.parent;
    if (holder && ts.isAwaitExpression(holder)) holder = holder.parent;
    if (holder && ts.isVariableDeclaration(holder) && ts.isObjectBindingPattern(holder.name)) {
      const names = holder.name.elements.map((element) => element.propertyName ?? element.name);
      if (names.every((name) => ts.isIdentifier(name))) return names.map((name) => ({ name: name.text }));
    }
  }
  return undefined; // jest.mock of an inner file mocks that file: kept as it is.
}

function importText(specifier, names) {
  const seen = new Set();
  const unique = names.filter((taken) => {
    const key = `${taken.name}:${taken.alias ?? ''}:${taken.isType ? 't' : 'v'}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // A name taken both as a type and as a value is taken once, as a value.
  const values = new Set(unique.filter((taken) => !taken.isType).map((taken) => `${taken.name}:${taken.alias ?? ''}`));
  const kept = unique.filter((taken) => !taken.isType || !values.has(`${taken.name}:${taken.alias ?? ''}`));
  const allTypes = kept.every((taken) => taken.isType);
  const parts = kept.map((taken) => `${!allTypes && taken.isType ? 'type ' : ''}${taken.name}${taken.alias ? ` as ${taken.alias}` : ''}`);
  return `import ${allTypes ? 'type ' : ''}{ ${parts.join(', ')} } from '${specifier}';`;
}

function rewrite(file) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const fromContext = contextOf(file);
  const edits = []; // { start, end, text }
  const merged = new Map(); // entry specifier → { first, declarations, names }
  let crossings = 0;
  let moved = 0;
  for (const reference of references(source)) {
    const target = resolveFile(file, reference.literal.text);
    if (!target) continue;
    const context = contextOf(target);
    if (!context || context === fromContext) continue;
    const where = entryFor(target);
    if (!where) continue;
    crossings += 1;
    const at = `${posix(relative(root, file))}:${lineOf(source, reference.node)}`;
    const names = takenNames(reference);
    if (!names) {
      report.left.push(`${at} ${reference.kind} of ${context}/${where.inner} (names cannot be read)`);
      continue;
    }
    const published = names.filter((taken) => publish(where.entryFile, target, taken.name));
    const refused = names.filter((taken) => !published.includes(taken));
    for (const taken of refused)
      report.left.push(`${at} ${taken.name} of ${context}/${where.inner}: ${posix(relative(SRC, where.entryFile))} exports another ${taken.name}`);
    if (published.length === 0) continue;
    const specifier = specifierTo(file, where.entryDir);
    if (reference.kind !== 'import') {
      if (refused.length) continue;
      edits.push({ start: reference.literal.getStart(source), end: reference.literal.getEnd(), text: `'${specifier}'` });
      moved += 1;
      continue;
    }
    if (!refused.length) moved += 1;
    const group = merged.get(specifier) ?? { declarations: [], names: [] };
    merged.set(specifier, group);
    group.declarations.push(reference.node);
    group.names.push(...published);
    if (refused.length) {
      // The names the entry cannot take stay on the inner file.
      edits.push({ start: reference.node.getStart(source), end: reference.node.getEnd(), text: importText(reference.literal.text, refused), keep: true });
    }
  }
  report.before += crossings;
  report.after += crossings - moved;
  // Imports already on the entry merge with the moved ones.
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const group = merged.get(statement.moduleSpecifier.text);
    const names = group && takenNames({ kind: 'import', node: statement });
    if (names) {
      group.declarations.push(statement);
      group.names.push(...names);
    }
  }
  for (const [specifier, group] of merged) {
    const declarations = [...group.declarations].sort((a, b) => a.getStart(source) - b.getStart(source));
    const [first, ...rest] = declarations;
    const firstKept = edits.find((edit) => edit.keep && edit.start === first.getStart(source));
    if (firstKept) firstKept.text = `${firstKept.text}\n${importText(specifier, group.names)}`;
    else edits.push({ start: first.getStart(source), end: first.getEnd(), text: importText(specifier, group.names) });
    for (const declaration of rest) {
      if (edits.some((edit) => edit.keep && edit.start === declaration.getStart(source))) continue;
      const end = text[declaration.getEnd()] === '\n' ? declaration.getEnd() + 1 : declaration.getEnd();
      edits.push({ start: declaration.getStart(source), end, text: '' });
    }
  }
  if (edits.length === 0) return;
  let next = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) next = next.slice(0, edit.start) + edit.text + next.slice(edit.end);
  if (next !== text) {
    report.changed.add(file);
    if (!dry) writeFileSync(file, next);
  }
}

for (const file of files) rewrite(file);
for (const [entryFile, state] of entries) {
  if (state.added.size === 0) continue;
  report.changed.add(entryFile);
  if (!dry) writeFileSync(entryFile, writeEntry(entryFile, state));
}
if (!dry && report.changed.size) {
  execFileSync('npx', ['prettier', '--write', '--log-level', 'warn', ...[...report.changed].map((file) => relative(root, file))], {
    cwd: root,
    stdio: 'inherit',
  });
}
const entryFiles = readdirSync(SRC, { withFileTypes: true }).filter((dir) => dir.isDirectory() && existsSync(join(SRC, dir.name, 'index.ts')));
console.log(`cross-context imports of inner files: ${report.before} found, ${report.after} left`);
console.log(`files ${dry ? 'to change' : 'changed'}: ${report.changed.size}; contexts with an entry file: ${entryFiles.length}`);
for (const line of report.left) console.log(`  left: ${line}`);
