import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The module picture stays one-way: no source-level cycle between the top-level folders of `src/`
 * (one per context). Type-only imports count too: a cycle in types is a cycle in the design.
 */
const SRC = __dirname;
/** Files directly in `src/` (app module, bootstrap) wire every context together; they are not one. */
const ROOT = '(src)';

/** Every relative specifier a file imports or re-exports, static or dynamic. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"](\.[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function contextOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? parts[0] : ROOT;
}

/** Context → the contexts it imports, from the source text. */
export function contextGraph(files: readonly string[], read: (file: string) => string): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = contextOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const [, specifier] of read(file).matchAll(IMPORT)) {
      const to = contextOf(resolve(dirname(file), specifier));
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

  it('resolves relative imports, type-only and re-exports included, to their context', () => {
    const files = [join(SRC, 'x', 'deep', 'one.ts'), join(SRC, 'y', 'two.ts')];
    const text: Record<string, string> = {
      [files[0]]: "import type { T } from '../../y/two';\nexport { U } from '../local';",
      [files[1]]: "import { V } from '../x/deep/one';\nimport { W } from '@nestjs/common';",
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
});
