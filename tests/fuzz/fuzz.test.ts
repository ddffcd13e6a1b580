// A short fuzz run (scripts/fuzz.ts; `npm run fuzz` does 100,000): a real server process with job workers
// on, requests generated from its /openapi/json. It fails on what a client must never see — a 5xx, a
// request left hanging, a server that dies, memory that keeps growing — and when hostile requests changed
// what later innocent ones get (a sign-up that is not a plain user, a post without visibility that is not
// public). 4xx answers are the expected outcome of most fuzzed requests and never fail it.
import { describe, expect, test } from "bun:test";
import { generate, type Generator } from "../../scripts/fuzz/generate.ts";
import { summary } from "../../scripts/fuzz/report.ts";
import { runFuzz } from "../../scripts/fuzz/run.ts";
import { STRATEGY_WEIGHTS } from "../../scripts/fuzz/mutate.ts";
import { isFailure } from "../../scripts/fuzz/send.ts";
import { wtf8 } from "../../scripts/fuzz/encode.ts";
import type { Operation } from "../../scripts/fuzz/spec.ts";

describe("fuzzing", () => {
  test("generation is deterministic by seed and request number", async () => {
    const operation: Operation = {
      key: "POST /api/v1/statuses/{id}/reblog",
      method: "POST",
      path: "/api/v1/statuses/{id}/reblog",
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      body: { type: "object", properties: { visibility: { type: "string", enum: ["public", "private"] } } },
      scopes: ["write:statuses"],
      kind: "http",
    };
    const generator: Generator = {
      operations: [operation],
      pools: {
        domain: "localhost", accounts: ["1"], usernames: ["alice"], passwords: ["pw"], csrf: { cookie: "c", token: "t" }, statuses: ["2"], lists: ["3"], notifications: ["4"],
        groupKeys: ["ungrouped-4"], tags: ["fuzz"], apps: [{ client_id: "c", client_secret: "s" }], spareTokens: ["t"], streamToken: "t",
      },
      credentials: { user: [{ label: "u", token: "U" }], narrow: [{ label: "n", token: "N" }], app: [{ label: "a", token: "A" }], revoked: [{ label: "r", token: "R" }] },
      strategies: STRATEGY_WEIGHTS,
    };
    const seen = new Set<string>();
    for (let index = 0; index < 200; index++) {
      const [a, b] = [await generate(generator, 7, index), await generate(generator, 7, index)];
      expect(b).toEqual(a);
      seen.add(a.strategy);
    }
    expect(seen.size).toBe(Object.values(STRATEGY_WEIGHTS).filter((weight) => weight > 0).length);
    const other = await generate(generator, 8, 0);
    const first = await generate(generator, 7, 0);
    expect(JSON.stringify([other.target, other.headers, other.strategy])).not.toBe(JSON.stringify([first.target, first.headers, first.strategy]));
  });

  test("what counts as a failure: 5xx, hangs and WebSocket server errors, never a 4xx", () => {
    const request = { index: 0, operation: "GET /x", kind: "http", strategy: "valid", auth: "anonymous", method: "GET", target: "/x", headers: {} } as const;
    const failed = (status: string, raw?: string) => isFailure({ ...request, raw: raw === undefined ? undefined : wtf8(raw) }, { status, ms: 1, detail: "" });
    for (const status of ["200", "400", "404", "413", "422", "429", "closed", "ws-refused", "ws-close-1003"]) expect(failed(status)).toBe(false);
    for (const status of ["500", "502", "hang", "ws-close-1011"]) expect(failed(status)).toBe(true);
    // Bun's parser answers a malformed request line with 505 before Warren sees it.
    expect(failed("505", "GET /x HTTP/9.9\r\n\r\n")).toBe(false);
    expect(failed("505", "GET /x HTTP/1.1\r\n\r\n")).toBe(true);
  });

  test(
    "2,000 generated requests: no 5xx, no hang, memory flat, no pollution",
    async () => {
      const result = await runFuzz({ seed: 20_251_124, count: 2_000, concurrency: 4, timeoutMs: 20_000, maxGrowthMb: 128, without: [] });
      if (!result.ok) console.error(summary(result));
      expect(result.problems).toEqual([]);
      expect(result.failures.map((f) => `${f.request.operation} ${f.outcome.status} (${f.request.strategy}); see ${result.dir}`)).toEqual([]);
      expect(result.requests).toBe(2_000);
      // Every operation of /openapi/json was exercised.
      expect([...result.perOperation.values()].every((counts) => counts.size > 0)).toBe(true);
    },
    240_000,
  );
});
