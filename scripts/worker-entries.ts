// Finds the Worker entry files under src/, so the build embeds each one as an extra entry point.
//
// Inside the executable a worker must be named by a path the binary can resolve. The build names entry
// outputs without their folder (`naming: "[name].[ext]"`), so the supported spelling is
// `new URL("./name.ts", import.meta.url)` (passed to `new Worker`, directly or through a constant) with the
// worker file next to the spawning file, which works the same under `bun src/main.ts`. A file that spawns a
// Worker without such a URL fails the build here rather than the binary at run time.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { NativeBuildError } from "./native-plugin.ts";

const WORKER_CALL = /new\s+Worker\s*\(/;
const WORKER_URL = /new\s+URL\s*\(\s*(["'])(\.\/[\w.-]+\.ts)\1\s*,\s*import\.meta\.url\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/** Worker entry files: every `new URL("./x.ts", import.meta.url)` in a file that spawns a Worker. */
export function findWorkerEntries(srcDir: string): string[] {
  const entries = new Map<string, string>();
  for (const file of sourceFiles(srcDir)) {
    const source = stripComments(readFileSync(file, "utf8"));
    if (!WORKER_CALL.test(source)) continue;
    const urls = [...source.matchAll(WORKER_URL)].map((match) => match[2]!);
    if (urls.length === 0) {
      throw new NativeBuildError(
        `${file} spawns a Worker without a new URL("./name.ts", import.meta.url) next to it; spell the worker ` +
          `that way, with the worker file in the same folder, so the single executable can find it`,
      );
    }
    for (const url of urls) {
      const entry = resolve(dirname(file), url);
      if (!existsSync(entry)) throw new NativeBuildError(`${file}: worker entry ${url} does not exist`);
      const name = basename(entry, ".ts");
      const clash = entries.get(name);
      if (clash && clash !== entry) {
        throw new NativeBuildError(`worker entries ${clash} and ${entry} share the name ${name}; rename one`);
      }
      entries.set(name, entry);
    }
  }
  return [...entries.values()].sort();
}
