// Builds scripts/native-smoke.ts with the same plugin as dist/warren and runs it from an empty folder.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertNoCheckoutPaths, NativeBuildError, type NativePlugin } from "./native-plugin.ts";

type Compile = (entrypoints: string[], out: string) => Promise<NativePlugin>;

export async function runNativeSmoke(compile: Compile) {
  const dir = mkdtempSync(join(tmpdir(), "warren-native-smoke-"));
  try {
    const binary = join(dir, "native-smoke");
    const plugin = await compile([join(import.meta.dir, "native-smoke.ts")], binary);
    plugin.assertApplied(["lmdb", "lmdb-dictionary", "msgpackr-extract", "sharp"]);
    assertNoCheckoutPaths(binary);
    const proc = Bun.spawn([binary, dir], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0 || !out.includes("native smoke ok")) {
      throw new NativeBuildError(`native smoke binary failed (exit ${code}):\n${out}${err}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
