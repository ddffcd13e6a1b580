// `bun scripts/check-arrows.ts`: the layering of src/ (docs/architecture.md) as a check. Parses the imports of
// every file under src/ (static, re-exports, dynamic `import()`, type-only ones too: a type is an arrow as
// well) and fails on a forbidden arrow between top-level folders, on a circle of imports (leaving out a
// folder's own index.ts and the files under it, which it composes), on any file over MAX_LINES lines and on
// any function over MAX_FUNCTION_LINES (scripts/long-functions.ts). tests/arrows.test.ts runs it, so the
// layering stays true.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { longFunctions, MAX_FUNCTION_LINES } from "./long-functions.ts";

export const MAX_LINES = 400;

/** [from folder, to folder]: no file under src/<from> may import one under src/<to>. */
export const FORBIDDEN: ReadonlyArray<readonly [string, string]> = [
  ["domain", "federation"], // the domain reaches other servers through its Deps (`remote`), filled in by the composition root
  ["domain", "http"],
  ["jobs", "domain"], // src/jobs is infrastructure: its handler table comes from the composition root
  ["http", "store"], // http → domain → store
  ["entities", "http"],
  ["entities", "store"],
  ["media", "domain"],
];

/** Files allowed past MAX_LINES (none): add none, split the file instead. */
export const LONG_FILES: ReadonlySet<string> = new Set<string>([]);

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** Comments out, strings kept: an import spelled in a comment is no arrow. */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

/** The top-level folder of a path under src/ ("" for files at its root). */
const folderOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : "");

export interface Arrow {
  from: string;
  to: string;
}

/** Every import between files of src/ (paths relative to src/). */
export function arrows(srcDir: string): Arrow[] {
  const found: Arrow[] = [];
  for (const file of sourceFiles(srcDir)) {
    const source = stripComments(readFileSync(file, "utf8"));
    for (const match of source.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2]!;
      if (!spec.startsWith(".")) continue;
      found.push({ from: relative(srcDir, file), to: relative(srcDir, resolve(dirname(file), spec)) });
    }
  }
  return found;
}

/** A folder's index.ts and a file under that folder: the index composes it, so their arrows make no circle. */
function ownIndex(index: string, file: string): boolean {
  return (index === "index.ts" || index.endsWith("/index.ts")) && file.startsWith(index.slice(0, -"index.ts".length));
}

/** The circles of imports between files (strongly connected components of two files or more), sorted. */
export function circles(found: readonly Arrow[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of found) {
    if (ownIndex(to, from) || ownIndex(from, to)) continue;
    if (!graph.has(to)) graph.set(to, new Set());
    graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  // Tarjan's algorithm, iteratively, so that a long chain of imports cannot overflow the stack.
  const index = new Map<string, number>(), low = new Map<string, number>(), onStack = new Set<string>();
  const stack: string[] = [], out: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<[string, string[]]> = [];
    const enter = (v: string) => {
      index.set(v, index.size);
      low.set(v, index.get(v)!);
      stack.push(v);
      onStack.add(v);
      work.push([v, [...graph.get(v)!]]);
    };
    enter(root);
    while (work.length) {
      const [v, next] = work[work.length - 1]!;
      const w = next.shift();
      if (w !== undefined) {
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1]![0];
        low.set(parent, Math.min(low.get(parent)!, low.get(v)!));
      }
      if (low.get(v) !== index.get(v)) continue;
      const component: string[] = [];
      let w2: string;
      do {
        w2 = stack.pop()!;
        onStack.delete(w2);
        component.push(w2);
      } while (w2 !== v);
      if (component.length > 1) out.push(component.sort());
    }
  }
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** What breaks the rules: forbidden arrows, circles of imports, long files, long functions. */
export function problems(srcDir: string): string[] {
  const out: string[] = [];
  const found = arrows(srcDir);
  for (const { from, to } of found) {
    if (!FORBIDDEN.some(([a, b]) => folderOf(from) === a && folderOf(to) === b)) continue;
    out.push(`forbidden arrow ${folderOf(from)} → ${folderOf(to)}: ${from} -> ${to}`);
  }
  for (const file of sourceFiles(srcDir)) {
    const lines = readFileSync(file, "utf8").split("\n").length - 1;
    const path = relative(srcDir, file);
    if (lines > MAX_LINES && !LONG_FILES.has(path)) out.push(`${path} has ${lines} lines (over ${MAX_LINES}): split it`);
    for (const { name, line, length } of longFunctions(readFileSync(file, "utf8"))) {
      out.push(`${path}:${line} ${name} has ${length} lines (over ${MAX_FUNCTION_LINES}): split it`);
    }
  }
  for (const circle of circles(found)) out.push(`import circle: ${circle.join(", ")}`);
  return out;
}

if (import.meta.main) {
  const found = problems(join(import.meta.dir, "..", "src"));
  for (const problem of found) console.error(problem);
  if (found.length) process.exit(1);
  console.log("arrows: ok");
}
