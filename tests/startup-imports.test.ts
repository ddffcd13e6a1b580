// What `warren serve` loads before its first answer (docs/benchmarks.md, "Start-up"): the packages only some
// requests or jobs need are imported where they are first used, so the static import graph of src/main.ts
// (the bundler's, over the real tree) must not reach them, nor the CLI's words or the federation's wiring.
import { expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");
/** Imported on first use only (federation requests and jobs, image work, pushes, mail, uploads). */
const LAZY_PACKAGES = ["@fedify/fedify", "@fedify/vocab", "sharp", "web-push", "nodemailer", "file-type"];
const LAZY_MODULES = ["src/cli/index.ts", "src/federation/index.ts", "src/federation/remote-accounts.ts"];

interface Input {
  imports: { path: string; kind: string; external?: boolean }[];
}

test("the server's static imports reach neither Fedify, sharp, web-push, nodemailer, file-type nor the CLI", async () => {
  const result = (await Bun.build({ entrypoints: [join(ROOT, "src/main.ts")], target: "bun", packages: "external", metafile: true } as Bun.BuildConfig)) as unknown as {
    metafile: { inputs: Record<string, Input> };
  };
  const inputs = result.metafile.inputs;
  const entry = Object.keys(inputs).find((path) => path.endsWith("src/main.ts"))!;
  const reached = new Set([entry]);
  const packages = new Set<string>();
  for (const file of reached) {
    for (const { path, kind, external } of inputs[file]?.imports ?? []) {
      if (kind === "dynamic-import") continue;
      if (external) packages.add(path);
      else reached.add(path);
    }
  }
  expect(reached.size).toBeGreaterThan(300);
  expect([...packages].filter((name) => LAZY_PACKAGES.some((lazy) => name === lazy || name.startsWith(`${lazy}/`)))).toEqual([]);
  expect([...reached].filter((file) => LAZY_MODULES.some((lazy) => file.endsWith(lazy)))).toEqual([]);
});
