// `npm run fuzz`: requests generated from Warren's /openapi/json against a real server process.
//   bun scripts/fuzz.ts [--seed N] [--count N] [--concurrency N] [--timeout MS] [--max-growth-mb N]
//                       [--without strategy,…] [--only index,…] [--keep]
// Exits 1 on any 5xx, hang, WebSocket server error, invariant violation or memory growth beyond the bound.
import { parseArgs } from "node:util";
import { enabledStrategies } from "./fuzz/generate.ts";
import { summary } from "./fuzz/report.ts";
import { runFuzz } from "./fuzz/run.ts";

const { values } = parseArgs({
  options: {
    seed: { type: "string", default: "1" },
    count: { type: "string", default: "100000" },
    concurrency: { type: "string", default: "4" },
    timeout: { type: "string", default: "15000" },
    "max-growth-mb": { type: "string", default: "128" },
    without: { type: "string", default: "" },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
  },
});

function integer(name: keyof typeof values): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer\n`);
    process.exit(64);
  }
  return n;
}

const without = values.without ? values.without.split(",") : [];
try {
  enabledStrategies(without);
} catch (error) {
  process.stderr.write(`--without: ${(error as Error).message}\n`);
  process.exit(64);
}

const result = await runFuzz({
  seed: integer("seed"),
  count: integer("count"),
  concurrency: Math.max(1, integer("concurrency")),
  timeoutMs: integer("timeout"),
  maxGrowthMb: integer("max-growth-mb"),
  without,
  only: values.only?.split(",").map(Number),
  keep: values.keep,
  progress: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(summary(result) + "\n");
process.exit(result.ok ? 0 : 1);
