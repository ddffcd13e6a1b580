// The layering of src/ (docs/architecture.md, "Arrows"): scripts/check-arrows.ts over the real tree, and over a
// small made-up tree to show that it does catch what it is meant to.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { MAX_LINES, problems } from "../scripts/check-arrows.ts";
import { functionSpans, MAX_FUNCTION_LINES } from "../scripts/long-functions.ts";

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

test("src/ has no forbidden arrow, no import circle, no file over the line limit and no long function", () => {
  expect(problems(join(import.meta.dir, "..", "src"))).toEqual([]);
});

test("the check catches static, type-only, re-exported and lazy imports across a forbidden arrow, circles, long files and functions", () => {
  const longBody = "  x++;\n".repeat(MAX_FUNCTION_LINES);
  const root = tree({
    "domain/a.ts": 'import { x } from "../federation/x.ts";\nimport type { Y } from "../http/y.ts";\n',
    "domain/b.ts": 'export const f = async () => (await import("../federation/x.ts")).x;\n// import { z } from "../federation/x.ts";\n',
    "jobs/c.ts": 'export { d } from "../domain/d.ts";\n',
    "reactions/ok.ts": 'import { d } from "../domain/d.ts";\nimport { x } from "../federation/x.ts";\n',
    "domain/d.ts": "export const d = 1;\n",
    "federation/x.ts": "export const x = 1;\n",
    "http/y.ts": "export type Y = 1;\n",
    "lib/long.ts": "\n".repeat(MAX_LINES + 1),
    // a circle of three files, and a folder's index with the files it composes (no circle)
    "lib/p.ts": 'import type { Q } from "./q.ts";\nexport type P = Q;\n',
    "lib/q.ts": 'import { r } from "./r.ts";\nexport type Q = 1;\n',
    "lib/r.ts": 'import type { P } from "./p.ts";\nexport const r = 1;\n',
    "search/index.ts": 'import { part } from "./part.ts";\nexport const all = part;\n',
    "search/part.ts": 'import type { all } from "./index.ts";\nexport const part = 1;\n',
    "lib/fn.ts": `export function tooLong(x: number): { y: number } {\n${longBody}  return { y: x };\n}\n`,
  });
  expect(problems(root)).toEqual([
    "forbidden arrow domain → federation: domain/a.ts -> federation/x.ts",
    "forbidden arrow domain → http: domain/a.ts -> http/y.ts",
    "forbidden arrow domain → federation: domain/b.ts -> federation/x.ts",
    "forbidden arrow jobs → domain: jobs/c.ts -> domain/d.ts",
    `lib/fn.ts:1 tooLong has ${MAX_FUNCTION_LINES + 3} lines (over ${MAX_FUNCTION_LINES}): split it`,
    `lib/long.ts has ${MAX_LINES + 1} lines (over ${MAX_LINES}): split it`,
    "import circle: lib/p.ts, lib/q.ts, lib/r.ts",
  ]);
});

test("function lengths: functions, class and object-literal methods, arrows (also as class fields) are measured, from their head; braces in strings, comments and types are not", () => {
  const source = [
    "export function a(x: string): { n: number } {", // 1
    '  const s = "}}}"; // }', // 2
    "  return { n: s.length };", // 3
    "}", // 4
    "const b = (y: number) => {", // 5
    "  /* { */ return y;", // 6
    "};", // 7
    "class C {", // 8
    "  async method(z: number): Promise<void> {", // 9
    "    if (z) {", // 10
    "      return;", // 11
    "    }", // 12
    "  }", // 13
    "}", // 14
    "const routes = (deps: unknown) =>", // 15
    "  make(deps)", // 16
    "    .get(1);", // 17
    "const queue = {", // 18
    "  /** a comment above a method is not part of it */", // 19
    "  start() {", // 20
    "    return 1;", // 21
    "  },", // 22
    "  stop: async () => {", // 23
    "    await 1;", // 24
    "  },", // 25
    "};", // 26
    "class D {", // 27
    "  private readonly wake = (): void => {", // 28
    "    go();", // 29
    "  };", // 30
    "  // a comment", // 31
    "  get size(): number {", // 32
    "    return 0;", // 33
    "  }", // 34
    "}", // 35
  ].join("\n");
  expect(functionSpans(source).map(({ name, line, length }) => `${name}@${line}:${length}`)).toEqual([
    "a@1:4",
    "b@5:3",
    "method@9:5",
    "routes@15:3",
    "start@20:3",
    "stop@23:3",
    "arrow@28:3",
    "size@32:3",
  ]);
});
