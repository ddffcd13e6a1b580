// In process (app.handle, no network), what every request costs (issue 29, docs/benchmarks.md "the cost of every
// request"): each shared hook called on its own on a verify_credentials request, then whole verify_credentials
// and get_status requests, for this checkout and, with --baseline=DIR, another one, in one process (blocks
// alternating). CPU time, not wall time: the machine is shared. Each checkout gets its own copy of the seed.
//   bun bench/request-cost.ts [--baseline=DIR] [--blocks=16] [--per-block=3000] [--data=DIR | seed options]
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { seededCopy } from "./lib/seeded.ts";

const option = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const roots = [resolve(import.meta.dir, ".."), ...(option("baseline", "") ? [resolve(option("baseline", ""))] : [])];
const blocks = Number(option("blocks", "16"));
const perBlock = Number(option("per-block", "3000"));
const seed = await seededCopy(process.argv.slice(2));

async function cpuPerCall(calls: number, f: () => unknown): Promise<number> {
  const started = process.cpuUsage();
  // A microtask between calls, as between requests: what one synchronous run shares (a snapshot) is not shared.
  for (let i = 0; i < calls; i++) await f();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

const HOOK_NAMES = [
  ["kept(request", "kept page or thread"], ["keptPage", "kept page or thread"], ["keptThread", "kept page or thread"], ["federationResponse", "Fedify's requests"],
  ["answer(request)", "Fedify's requests"], ["httpDate", "Date header"], ["blocked(", "IP blocks"], ["ipBlock", "IP blocks"], ["access-control", "CORS"],
  ["checkRequestHead", "request head limits"], ["MEDIA_URL_PREFIX", "media HEAD"], ["headAnswer", "media HEAD"], ["undeclaredDropped", "parameters"],
  ["checkedViewer", "auth"], ["cache-control", "cache headers"], ["uploadsOf", "uploads released"], ["observeRequest", "metrics"], ["ARRIVED", "metrics"],
];
const hookName = (source: string): string => HOOK_NAMES.find(([needle]) => source.includes(needle!))?.[1] ?? source.slice(0, 30);

async function openApp(root: string) {
  const { loadConfig } = await import(join(root, "src/config.ts"));
  const { buildApp, createDeps } = await import(join(root, "src/app.ts"));
  const dir = mkdtempSync(join(tmpdir(), "warren-request-cost-"));
  cpSync(seed.dir, dir, { recursive: true });
  const config = loadConfig({ WARREN_DATA_DIR: dir, WARREN_URL: "http://127.0.0.1:1", WARREN_JOB_WORKERS: "0", WARREN_RATE_LIMITS: "off", WARREN_CHECK_RESPONSES: "off", NODE_ENV: "production", WARREN_LOG: "off" });
  const app = buildApp(createDeps(config));
  await app.modules;
  return { root, app, dir };
}

const checkouts = await Promise.all(roots.map(openApp));
const token = seed.manifest.users[seed.manifest.largest.lastFollower]!.token;
const headers = { host: "127.0.0.1:3000", authorization: `Bearer ${token}`, accept: "*/*", "user-agent": "bench" };
const paths = { verify_credentials: "/api/v1/accounts/verify_credentials", get_status: `/api/v1/statuses/${seed.manifest.thread.rootId}` };

// Each hook on its own, on an Elysia-like context of a verify_credentials request.
const hooks = new Map<string, string[]>();
for (const [i, { app }] of checkouts.entries()) {
  const request = new Request(`http://127.0.0.1:1${paths.verify_credentials}`, { headers });
  const route = app.routes.find((r: { path: string }) => r.path === paths.verify_credentials);
  const context = () => ({ request, route: route.path, qi: -1, url: request.url, server: null, set: { headers: Object.create(null), status: 200 }, checkedViewer: undefined as unknown });
  const listed: [string, (c: unknown) => unknown][] = (app.event.request ?? []).map((h: { fn: (c: unknown) => unknown }) => [`onRequest: ${hookName(String(h.fn))}`, h.fn]);
  for (const type of ["transform", "beforeHandle", "afterHandle", "afterResponse"]) {
    for (const h of route.hooks[type] ?? []) listed.push([`${type}: ${hookName(String(h.fn ?? h))}`, h.fn ?? h]);
  }
  const seen = new Map<string, number>();
  for (const [hook, fn] of listed) {
    // The same kind twice (two kept-answer caches): numbered in order.
    const nth = (seen.get(hook) ?? 0) + 1;
    seen.set(hook, nth);
    const name = nth > 1 ? `${hook} (${nth})` : hook;
    let best = Infinity;
    for (let round = 0; round < 5; round++) best = Math.min(best, await cpuPerCall(40_000, () => fn(context())));
    const row = hooks.get(name) ?? roots.map(() => "-");
    row[i] = `${(best * 1000).toFixed(0)} ns`;
    hooks.set(name, row);
  }
}
console.log(`\neach hook on its own (CPU per call, best of 5 rounds)\n${"hook".padEnd(40)}${roots.map((r) => r.padStart(20).slice(-20)).join("")}`);
for (const [name, row] of hooks) console.log(name.padEnd(40) + row.map((v) => v.padStart(20)).join(""));

// Whole requests, checkouts alternating block by block.
console.log(`\nwhole requests (CPU µs per request, min / p25 of ${blocks} blocks of ${perBlock})`);
for (const [scenario, path] of Object.entries(paths)) {
  const url = `http://127.0.0.1:1${path}`;
  const ask = (app: { handle(r: Request): Promise<Response> }) => async () => void (await (await app.handle(new Request(url, { headers }))).arrayBuffer());
  for (const { app } of checkouts) await cpuPerCall(3000, ask(app));
  const times = checkouts.map(() => [] as number[]);
  for (let b = 0; b < blocks; b++) for (const [i, { app }] of checkouts.entries()) times[i]!.push(await cpuPerCall(perBlock, ask(app)));
  const at = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * f)]!.toFixed(2);
  console.log(scenario.padEnd(20) + times.map((xs, i) => `${roots[i]}: ${at(xs, 0)} / ${at(xs, 0.25)}`).join("   "));
}
for (const { dir } of checkouts) rmSync(dir, { recursive: true, force: true });
seed.remove();
process.exit(0);
