// Import graph of one folder (default src/federation): its circles (strongly connected components) and
// elementary cycles, with static imports only and with lazy import() too. Run: node scripts/import-cycles.mjs [dir]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
const dir = process.argv[2] ?? "src/federation";
const files = readdirSync(dir).filter((f) => f.endsWith(".ts"));
const re = /(?:import|export)\s+(?:type\s+)?[^'"]*?from\s+["'](\.\/[^"']+)["']|import\(\s*["'](\.\/[^"']+)["']\s*\)/g;
const edges = { static: new Map(), all: new Map() };
for (const f of files) {
  const text = readFileSync(join(dir, f), "utf8");
  edges.static.set(f, new Set()); edges.all.set(f, new Set());
  for (const m of text.matchAll(re)) {
    const target = (m[1] ?? m[2]).slice(2);
    if (!files.includes(target)) continue;
    edges.all.get(f).add(target);
    if (m[1]) edges.static.get(f).add(target);
  }
}
function sccs(g) {
  let index = 0; const idx = new Map(), low = new Map(), stack = [], on = new Set(), out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index++); stack.push(v); on.add(v);
    for (const w of g.get(v)) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) { const c = []; let w; do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v); out.push(c); }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out.filter((c) => c.length > 1 || g.get(c[0]).has(c[0]));
}
function countCycles(g, cap = 1e6) {
  // Elementary cycles, each counted once from its smallest node (simple DFS; the folder is small).
  const nodes = [...g.keys()].sort(); let n = 0;
  for (const start of nodes) {
    const path = new Set([start]);
    const dfs = (v) => { for (const w of g.get(v)) { if (w < start) continue; if (w === start) { n++; continue; } if (!path.has(w) && n < cap) { path.add(w); dfs(w); path.delete(w); } } };
    dfs(start);
  }
  return n;
}
for (const kind of ["static", "all"]) {
  const comps = sccs(edges[kind]);
  console.log(`${kind === "static" ? "static imports (incl. type-only)" : "static + dynamic import()"}: ${comps.length} circle(s), ${countCycles(edges[kind])} elementary cycles`);
  for (const c of comps) console.log(`  ${c.length} files: ${c.sort().join(" ")}`);
}
const intoIndex = files.filter((f) => edges.all.get(f).has("index.ts"));
console.log(`files importing index.ts: ${intoIndex.length}${intoIndex.length ? " (" + intoIndex.join(" ") + ")" : ""}`);
