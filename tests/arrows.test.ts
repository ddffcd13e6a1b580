// The layering of src/ (docs/architecture.md, "Arrows"): scripts/check-arrows.ts over the real tree, and over a
// small made-up tree to show that it does catch what it is meant to.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MAX_LINES, problems } from "../scripts/check-arrows.ts";

const made = mkdtempSync(join(tmpdir(), "warren-arrows-"));
afterAll(() => rmSync(made, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(made, "src-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test("src/ has no forbidden arrow, no stale allow-list entry and no file over the line limit", () => {
  expect(problems(join(import.meta.dir, "..", "src"))).toEqual([]);
});

test("the check catches static, type-only, re-exported and lazy imports across a forbidden arrow, and long files", () => {
  const root = tree({
    "domain/a.ts": 'import { x } from "../federation/x.ts";\nimport type { Y } from "../http/y.ts";\n',
    "domain/b.ts": 'export const f = async () => (await import("../federation/x.ts")).x;\n// import { z } from "../federation/x.ts";\n',
    "jobs/c.ts": 'export { d } from "../domain/d.ts";\n',
    "reactions/ok.ts": 'import { d } from "../domain/d.ts";\nimport { x } from "../federation/x.ts";\n',
    "domain/d.ts": "export const d = 1;\n",
    "federation/x.ts": "export const x = 1;\n",
    "http/y.ts": "export type Y = 1;\n",
    "lib/long.ts": "\n".repeat(MAX_LINES + 1),
  });
  expect(problems(root, new Set())).toEqual([
    "forbidden arrow domain → federation: domain/a.ts -> federation/x.ts",
    "forbidden arrow domain → http: domain/a.ts -> http/y.ts",
    "forbidden arrow domain → federation: domain/b.ts -> federation/x.ts",
    "forbidden arrow jobs → domain: jobs/c.ts -> domain/d.ts",
    `lib/long.ts has ${MAX_LINES + 1} lines (over ${MAX_LINES}): split it`,
  ]);
  // An allowed arrow passes; an allowed one that no longer exists is reported, so the list only shrinks.
  expect(problems(root, new Set(["jobs/c.ts -> domain/d.ts", "jobs/gone.ts -> domain/d.ts"]))).toContain(
    "allow-list entry matches no import any more, remove it: jobs/gone.ts -> domain/d.ts",
  );
  expect(problems(root, new Set(["jobs/c.ts -> domain/d.ts"])).some((p) => p.includes("jobs/c.ts"))).toBe(false);
});
