// The modules form layers (issue 24, decision 0035): order/ is the engine at
// the bottom of the order modules, order-view/ the read side at the top, and
// no two modules import each other both ways. A two-way pair means the
// knowledge of one concern is split over two folders; this test names it.
// Type-only imports count too: they are a dependency of the code's meaning.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULES = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/g;

/** module → the other modules its production files import, with one file that does it. */
function moduleImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(MODULES)) {
    const from = relative(MODULES, file).split('/')[0]!;
    if (!file.slice(MODULES.length + 1).includes('/')) continue; // files beside the module folders
    const targets = graph.get(from) ?? new Map<string, string>();
    graph.set(from, targets);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = relative(MODULES, normalize(join(dirname(file), match[1]!)));
      if (target.startsWith('..')) continue;
      const to = target.split('/')[0]!;
      if (to !== from && !targets.has(to)) targets.set(to, relative(MODULES, file));
    }
  }
  return graph;
}

describe('server/modules import each other one way', () => {
  it('reads the modules it should (the test itself works)', () => {
    const graph = moduleImports();
    expect(graph.get('order-view')?.has('order')).toBe(true);
    expect(graph.size).toBeGreaterThan(15);
  });

  it('has no pair of modules importing each other both ways', () => {
    const graph = moduleImports();
    const pairs: string[] = [];
    for (const [a, targets] of graph) {
      for (const [b, file] of targets) {
        const back = graph.get(b)?.get(a);
        if (back && a < b) pairs.push(`${a} ⇄ ${b} (${file} → ${b}; ${back} → ${a})`);
      }
    }
    expect(pairs).toEqual([]);
  });

  it("keeps order/ (the engine) below the modules that record an order's sub-records", () => {
    const fromOrder = [...(moduleImports().get('order')?.keys() ?? [])];
    const above = [
      'order-view',
      'refund',
      'result',
      'price-difference',
      'interview',
      'material',
      'page-check',
      'payment',
      'review',
      'ship-back',
      'mail',
      'courier',
      'insurance',
    ];
    expect(fromOrder.filter((module) => above.includes(module))).toEqual([]);
  });
});
