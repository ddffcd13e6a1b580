// The seeded instance a run's scale scenarios use: `--data DIR`, or one of `--accounts/--statuses/--seed`
// (default the small DEFAULT_SIZE), seeded with bench/seed.ts under .bench/seeds/ the first time. Each run
// works on one copy of it (writes by the posting scenarios stay in the copy), removed at the end.
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MANIFEST_FILE, readManifest, type SeedManifest } from "../seed/manifest.ts";
import { defaultSeedDir, flag, seedSize } from "../seed/options.ts";

const root = join(import.meta.dir, "../..");

export interface SeededCopy {
  source: string;
  dir: string;
  manifest: SeedManifest;
  remove(): void;
}

export async function seededCopy(args: readonly string[]): Promise<SeededCopy> {
  const given = flag(args, "data");
  const size = seedSize(args);
  const source = resolve(given ?? defaultSeedDir(root, size));
  if (!existsSync(join(source, MANIFEST_FILE))) {
    if (given) throw new Error(`${source} holds no seeded instance (no ${MANIFEST_FILE}); make one with npm run bench:seed`);
    console.log(`seeding ${source} (kept for later runs)…`);
    const seeding = Bun.spawn([process.execPath, join(root, "bench/seed.ts"), "--accounts", String(size.accounts), "--statuses", String(size.statuses),
      "--seed", String(size.seed), "--data", source], { cwd: root, stdout: "ignore", stderr: "inherit" });
    if ((await seeding.exited) !== 0) throw new Error("seeding failed");
  }
  const dir = mkdtempSync(join(tmpdir(), "warren-bench-seeded-"));
  cpSync(source, dir, { recursive: true });
  return { source, dir, manifest: readManifest(dir), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
