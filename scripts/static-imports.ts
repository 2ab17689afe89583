// The project's own modules a module imports statically, found in the source
// (relative `import … from './x'`, `export … from './x'`, `import './x.css'`;
// never `import type` (erased) nor `import('./x')`, which loads later). Read by scripts/antd-styles.tsx
// (which antd components a route module shows) and vite.config.ts (which
// modules every page loads, bundled together).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The project's own modules a module imports (relative imports, resolved like Vite does). */
export function localImports(file: string): string[] {
  const found: string[] = [];
  // A statement up to its module name: `import type` / `export type` are left out (erased in the build).
  for (const match of readFileSync(file, 'utf8').matchAll(/\b(?:import|export)\s+(type\s+)?(?:[^;'"]*?\sfrom\s+)?'(\.{1,2}\/[^']+)'/g)) {
    if (match[1]) continue;
    const base = resolve(dirname(file), match[2]!);
    const hit = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((path) => /\.tsx?$/.test(path) && existsSync(path));
    if (hit) found.push(hit);
  }
  return found;
}

/** These modules and every module they import statically, as absolute paths, staying inside `within`. */
export function staticClosure(entries: string[], within: string): Set<string> {
  const files = new Set<string>();
  const inside = `${resolve(within)}/`;
  const queue = entries.map((entry) => resolve(entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (files.has(file) || !file.startsWith(inside)) continue;
    files.add(file);
    queue.push(...localImports(file));
  }
  return files;
}
