// Fails when a module of src/ imports itself back through other modules, counting
// `import type` and re-exports (`npm run check`, CI). The layers point one way:
// src/app.ts assembles routes, routes call services, services call repositories and
// infrastructure; a loop means one of them reaches back up.
//
//   node scripts/import-cycles.ts [dir]   (default: src)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

// Static imports and re-exports (type-only included), side-effect imports, dynamic imports.
const SPECIFIER =
  /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/gm;

export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolve(dirname(file), match[1] ?? match[2]!);
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Strongly connected components with more than one module (or a module importing itself): Tarjan. */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) !== indices.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

/** One loop through a component, to show where it closes: a → b → … → a. */
function loopIn(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const path: string[] = [start];
  const seen = new Set<string>([start]);
  const walk = (node: string): boolean => {
    for (const next of graph.get(node) ?? []) {
      if (next === start) return true;
      if (!members.has(next) || seen.has(next)) continue;
      seen.add(next);
      path.push(next);
      if (walk(next)) return true;
      path.pop();
    }
    return false;
  };
  walk(start);
  return [...path, start];
}

if (import.meta.main) {
  const graph = importGraph(sources(root));
  const found = cycles(graph);
  const name = (file: string) => relative(process.cwd(), file);
  if (found.length === 0) {
    console.log(`import-cycles: ${graph.size} modules in ${name(root)}, no loop`);
  } else {
    for (const component of found) {
      console.error(`import loop of ${component.length} modules: ${loopIn(graph, component).map(name).join(' → ')}`);
      if (component.length > 2) console.error(`  all of them: ${component.map(name).join(', ')}`);
    }
    console.error(`import-cycles: ${found.length} loop(s) in ${name(root)}`);
    process.exitCode = 1;
  }
}
