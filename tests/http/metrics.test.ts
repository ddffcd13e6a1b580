// GET /metrics (src/http/metrics, docs/metrics.md): Prometheus text for clients on loopback and for the bearer
// token WARREN_METRICS_TOKEN, 404 for everyone else (a request relayed by a proxy for someone outside
// included); requests are counted by route pattern, job failures by type, with job workers on. Requests here
// are handled in process, which the rate limits (and so /metrics) take as coming from loopback; the
// X-Forwarded-For header then names the client, as a reverse proxy on loopback would.
import { eventually } from "../helpers/eventually.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { TEST_HANDLERS } from "../jobs/fixtures/queue.ts";

const TOKEN = "metrics-token-0123456789";

const REQUIRED = [
  "warren_http_requests_total",
  "warren_http_request_duration_seconds",
  "warren_jobs_waiting",
  "warren_job_lag_seconds",
  "warren_jobs_failed_total",
  "warren_federation_deliveries_total",
  "warren_federation_inbox_total",
  "warren_streaming_connections",
  "warren_lmdb_map_used_bytes",
  "warren_cache_hits_total",
  "warren_cache_misses_total",
  "process_cpu_seconds_total",
  "process_resident_memory_bytes",
];

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_METRICS_TOKEN: TOKEN, WARREN_JOB_HANDLERS_EXTRA: TEST_HANDLERS });
});
afterAll(() => t.close());

async function scrape(headers: Record<string, string> = {}): Promise<string> {
  const res = await t.request("/metrics", { headers });
  expect(res.status).toBe(200);
  return res.text();
}

/** The value of one series (name with its labels exactly as exposed), 0 when absent. */
function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

test("loopback gets every metric as Prometheus text 0.0.4, never cached", async () => {
  const res = await t.request("/metrics");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const text = await res.text();
  for (const name of REQUIRED) expect(text).toContain(`# TYPE ${name} `);
  expect(text).toContain('warren_jobs_waiting{lane="realtime"} ');
  expect(value(text, "warren_lmdb_map_used_bytes")).toBeGreaterThan(0);
  // Every sample line is `name{labels} number`.
  for (const line of text.trim().split("\n")) {
    if (!line.startsWith("#")) expect(line).toMatch(/^[a-z_:][a-z0-9_:]*(\{.*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/);
  }
});

test("a public client relayed by a proxy on loopback gets 404; the token opens it from anywhere", async () => {
  const outside = { "x-forwarded-for": "203.0.113.9" };
  const relayed = await t.request("/metrics", { headers: outside });
  expect(relayed.status).toBe(404);
  expect(await relayed.json()).toEqual({ error: "Record not found" });
  // A private or loopback hop named by the proxy is still not the client itself on loopback.
  expect((await t.request("/metrics", { headers: { "x-forwarded-for": "10.0.0.7" } })).status).toBe(404);
  expect((await t.request("/metrics", { headers: { "x-forwarded-for": "127.0.0.1" } })).status).toBe(200);

  expect(await scrape({ ...outside, authorization: `Bearer ${TOKEN}` })).toContain("# TYPE warren_http_requests_total counter");
  for (const authorization of [`Bearer ${TOKEN}x`, "Bearer wrong", `Basic ${btoa(`x:${TOKEN}`)}`, "Bearer"]) {
    expect((await t.request("/metrics", { headers: { ...outside, authorization } })).status).toBe(404);
    // A request that sends credentials is judged by them alone, on loopback too.
    expect((await t.request("/metrics", { headers: { authorization } })).status).toBe(404);
  }
  // The token is read from the header only, never from the query (it would end up in access logs).
  expect((await t.request(`/metrics?access_token=${TOKEN}`, { headers: outside })).status).toBe(404);
});

test("without a token configured only loopback is let in", async () => {
  const other = await startTestApp();
  try {
    expect((await other.request("/metrics")).status).toBe(200);
    expect((await other.request("/metrics", { headers: { "x-forwarded-for": "198.51.100.1", authorization: "Bearer anything-at-all-1234" } })).status).toBe(404);
  } finally {
    await other.close();
  }
});

test("requests are counted and timed by route pattern, never by raw path", async () => {
  const before = await scrape();
  const instance = 'warren_http_requests_total{route="/api/v1/instance",status="200"}';
  const status = 'warren_http_requests_total{route="/api/v1/statuses/:id",status="404"}';
  for (let i = 0; i < 3; i++) expect((await t.request("/api/v1/instance")).status).toBe(200);
  expect((await t.request("/api/v1/statuses/123456")).status).toBe(404);
  expect((await t.request("/no/such/path")).status).toBe(404);
  // Recorded once the answer has gone out (Elysia's afterResponse), a moment after the client has it.
  const after = await eventually(async () => {
    const text = await scrape();
    return value(text, instance) - value(before, instance) === 3 && text.includes('route="(unmatched)"') && text;
  });
  expect(value(after, status) - value(before, status)).toBe(1);
  expect(after).not.toContain("123456");
  expect(after).toContain('warren_http_requests_total{route="(unmatched)",status="404"}');
  const count = 'warren_http_request_duration_seconds_count{route="/api/v1/instance"}';
  expect(value(after, count) - value(before, count)).toBe(3);
  expect(value(after, 'warren_http_request_duration_seconds_bucket{route="/api/v1/instance",le="+Inf"}')).toBe(value(after, count));
});

test("cache hits and misses move: the viewer of a token is read once, then kept", async () => {
  const { token } = await signedInUser(t, "carol");
  const hits = 'warren_cache_hits_total{cache="viewers"}';
  const before = await scrape();
  for (let i = 0; i < 3; i++) expect((await t.request("/api/v1/accounts/verify_credentials", { token })).status).toBe(200);
  const after = await scrape();
  expect(value(after, hits) - value(before, hits)).toBeGreaterThanOrEqual(2);
  expect(value(after, 'warren_cache_misses_total{cache="viewers"}')).toBeGreaterThan(0);
});

test("failed jobs are counted by type (worker threads on), and waiting jobs by lane", async () => {
  const failed = 'warren_jobs_failed_total{type="test.flaky"}';
  const dead = 'warren_jobs_dead_lettered_total{type="test.flaky"}';
  const before = await scrape();
  t.deps.jobs.pause();
  await t.deps.store.write(() => {
    t.deps.jobs.enqueue("test.flaky", { key: "m1", failures: 5 }, { maxAttempts: 1 });
    t.deps.jobs.enqueue("test.flaky", { key: "m2", failures: 5 }, { maxAttempts: 1 });
  });
  const waiting = await scrape();
  expect(value(waiting, 'warren_jobs_waiting{lane="default"}') - value(before, 'warren_jobs_waiting{lane="default"}')).toBe(2);
  t.deps.jobs.resume();
  await t.deps.jobs.drain();
  const after = await scrape();
  expect(value(after, failed) - value(before, failed)).toBe(2);
  expect(value(after, dead) - value(before, dead)).toBe(2);
  expect(value(after, 'warren_jobs_waiting{lane="default"}')).toBe(0);
});

test("a job that waits past its due time shows as lag of its lane", async () => {
  t.deps.jobs.pause();
  try {
    await t.deps.store.write(() => t.deps.jobs.enqueue("test.mark", { key: "lag" }, { lane: "backfill" }));
    const lag = await eventually(async () => {
      const seconds = value(await scrape(), 'warren_job_lag_seconds{lane="backfill"}');
      return seconds >= 0.2 && seconds;
    });
    expect(lag).toBeLessThan(30);
  } finally {
    t.deps.jobs.resume();
    await t.deps.jobs.drain();
  }
  expect(value(await scrape(), 'warren_job_lag_seconds{lane="backfill"}')).toBe(0);
});

test("docs/metrics.md lists every metric exposed, and the Grafana dashboard queries only those", async () => {
  const root = join(import.meta.dir, "../..");
  const exposed = new Set([...(await scrape()).matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  const page = readFileSync(join(root, "docs/metrics.md"), "utf8");
  for (const name of exposed) expect({ name, documented: page.includes(`\`${name}\``) }).toEqual({ name, documented: true });
  const dashboard = JSON.parse(readFileSync(join(root, "docs/grafana-dashboard.json"), "utf8"));
  const queried = new Set<string>();
  for (const panel of dashboard.panels) {
    for (const target of panel.targets) for (const m of target.expr.matchAll(/\b((?:warren|process)_[a-z_]+)/g)) queried.add(m[1].replace(/_bucket$/, ""));
  }
  expect(queried.size).toBeGreaterThan(10);
  for (const name of queried) expect({ name, exposed: exposed.has(name) }).toEqual({ name, exposed: true });
});

test("a timeline page sent from the page cache is counted under its route, as a cache hit", async () => {
  const { token } = await signedInUser(t, "dave");
  const route = 'warren_http_requests_total{route="/api/v1/timelines/home",status="200"}';
  const hits = 'warren_cache_hits_total{cache="timeline pages"}';
  const before = await scrape();
  // Kept from its second asking (PageCache.admit): the third is sent from the cache, before routing.
  for (let i = 0; i < 3; i++) expect((await t.request("/api/v1/timelines/home", { token })).status).toBe(200);
  const after = await eventually(async () => {
    const text = await scrape();
    return value(text, route) - value(before, route) === 3 && text;
  });
  expect(value(after, hits) - value(before, hits)).toBe(1);
});

test("a thread sent from the thread cache is counted under its route", async () => {
  const { token } = await signedInUser(t, "erin");
  const status = (await (await t.request("/api/v1/statuses", { method: "POST", token, json: { status: "a thread" } })).json()) as { id: string };
  const route = 'warren_http_requests_total{route="/api/v1/statuses/:id/context",status="200"}';
  const before = await scrape();
  // Kept from its second asking, as timeline pages: the third is sent before routing, by the kept-answer hook.
  for (let i = 0; i < 3; i++) expect((await t.request(`/api/v1/statuses/${status.id}/context`, { token })).status).toBe(200);
  await eventually(async () => value(await scrape(), route) - value(before, route) === 3);
});

test("requests refused by a rate limit before routing are counted as (throttled) 429s", async () => {
  const limited = await startTestApp({ WARREN_RATE_LIMITS: "on" });
  try {
    const series = 'warren_http_requests_total{route="(throttled)",status="429"}';
    const before = value(await (await limited.request("/metrics")).text(), series);
    let refused = 0;
    for (let i = 0; i < 305; i++) if ((await limited.request("/api/v1/instance")).status === 429) refused++;
    expect(refused).toBeGreaterThan(0);
    expect(value(await (await limited.request("/metrics")).text(), series) - before).toBe(refused);
  } finally {
    await limited.close();
  }
});

test("/openapi/json documents /metrics: text on 200, an error body on 404", async () => {
  const doc: any = await (await t.request("/openapi/json")).json();
  const responses = doc.paths["/metrics"].get.responses;
  expect(responses["200"].content["text/plain"].schema.type).toBe("string");
  expect(responses["404"].content["application/json"].schema.required).toEqual(["error"]);
});
