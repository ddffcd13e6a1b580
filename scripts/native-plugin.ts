// Bun.build plugin that makes lmdb, msgpackr-extract and sharp work inside `--compile` executables.
//
// All three locate their native `.node` files at run time (node-gyp-build scans directories, sharp tries a
// list of `require`s through createRequire), which finds nothing inside the executable. The plugin rewrites
// each loader to a static `require`/`import` of the platform package's `.node` file, so the bundler embeds it. sharp's
// addon also needs libvips, which it finds through an RPATH relative to node_modules: we embed that library as
// a file and dlopen it (bun:ffi) before sharp's addon loads, so the dynamic linker resolves it by soname.
//
// Every rewrite checks that the text it replaces is there; a dependency upgrade that changes a loader fails the
// build with a message naming the file, instead of producing a binary that breaks at start-up.
import type { BunPlugin } from "bun";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const modules = join(root, "node_modules");

export class NativeBuildError extends Error {}

function platform(): { os: string; cpu: string } {
  if (process.platform !== "linux" || !["x64", "arm64"].includes(process.arch)) {
    throw new NativeBuildError(`single executable builds are supported on linux-x64 and linux-arm64, not ${process.platform}-${process.arch}`);
  }
  return { os: "linux", cpu: process.arch };
}

function mustExist(path: string, what: string): string {
  if (!existsSync(path)) throw new NativeBuildError(`${what} not found at ${path} (did npm ci install optional dependencies?)`);
  return path;
}

/** The native files the executable embeds, resolved for the build machine's platform (glibc). */
export function nativeFiles() {
  const { os, cpu } = platform();
  const sharpDir = join(modules, "@img", `sharp-${os}-${cpu}`, "lib");
  const sharpVersion = JSON.parse(readFileSync(join(modules, "sharp", "package.json"), "utf8")).version;
  const libvipsDir = join(modules, "@img", `sharp-libvips-${os}-${cpu}`, "lib");
  const libvips = existsSync(libvipsDir) ? readdirSync(libvipsDir).find((f) => /^libvips-cpp\.so\.\d/.test(f)) : undefined;
  return {
    lmdb: mustExist(join(modules, "@lmdb", `lmdb-${os}-${cpu}`, "node.napi.glibc.node"), "lmdb addon"),
    msgpackrExtract: mustExist(
      join(modules, "@msgpackr-extract", `msgpackr-extract-${os}-${cpu}`, "node.napi.glibc.node"),
      "msgpackr-extract addon",
    ),
    sharp: mustExist(join(sharpDir, `sharp-${os}-${cpu}-${sharpVersion}.node`), "sharp addon"),
    libvips: mustExist(libvips ? join(libvipsDir, libvips) : join(libvipsDir, "libvips-cpp.so.*"), "libvips"),
    lmdbDictionary: mustExist(join(modules, "lmdb", "dict", "dict.txt"), "lmdb compression dictionary"),
  };
}

/**
 * A file that was not embedded would be loaded from this checkout at run time: it works here and nowhere
 * else. Such a path would appear in the executable, so its absence is the check.
 */
export function assertNoCheckoutPaths(file: string) {
  if (readFileSync(file).includes(Buffer.from(root + "/"))) {
    throw new NativeBuildError(
      `${file} contains the absolute path ${root}/: something is loaded from this checkout at run time ` +
        `instead of being embedded, so the binary would not run elsewhere`,
    );
  }
}

function replaceOnce(source: string, path: string, search: string, replacement: string): string {
  const at = source.indexOf(search);
  if (at < 0 || source.indexOf(search, at + 1) >= 0) {
    throw new NativeBuildError(
      `native loader rewrite failed: expected exactly one ${JSON.stringify(search)} in ${path}; ` +
        `the package changed its loader, update scripts/native-plugin.ts`,
    );
  }
  return source.slice(0, at) + replacement + source.slice(at + search.length);
}

const LIBVIPS_MODULE = "warren-native:libvips";

interface Rewrite {
  name: "lmdb" | "lmdb-dictionary" | "msgpackr-extract" | "sharp";
  /** Matched on the resolved file path. */
  file: RegExp;
  search: string;
  replacement: (files: ReturnType<typeof nativeFiles>) => string;
  /** Put before the file's source (an import of an embedded file). */
  prepend?: (files: ReturnType<typeof nativeFiles>) => string;
}

const REWRITES: Rewrite[] = [
  {
    name: "lmdb",
    file: /\/node_modules\/lmdb\/native\.js$/,
    search: "export let nativeAddon = loadNAPI(dirName);",
    replacement: (f) => `export let nativeAddon = require(${JSON.stringify(f.lmdb)});`,
  },
  {
    // Any compression option (the statuses keyspace's, store/status-compression.ts) makes lmdb read its default
    // dictionary from a file next to its module, even when the option names its own: the file is embedded, and
    // read first (the `??` never reaches the original read, as readFileSync returns a Buffer).
    name: "lmdb-dictionary",
    file: /\/node_modules\/lmdb\/open\.js$/,
    search: "dictionary: fs.readFileSync(",
    replacement: () => "dictionary: fs.readFileSync(warrenLmdbDictionary) ?? fs.readFileSync(",
    prepend: (f) => `import warrenLmdbDictionary from ${JSON.stringify(f.lmdbDictionary)} with { type: "file" };\n`,
  },
  {
    name: "msgpackr-extract",
    file: /\/node_modules\/msgpackr-extract\/index\.js$/,
    search: "module.exports = require('node-gyp-build-optional-packages')(__dirname);",
    replacement: (f) => `module.exports = require(${JSON.stringify(f.msgpackrExtract)});`,
  },
  {
    // With `sharp` set up front, the file's own loader chain (`if (!sharp) try require(…)`) is skipped.
    name: "sharp",
    file: /\/node_modules\/sharp\/dist\/sharp\.mjs$/,
    search: "let sharp;\n",
    replacement: (f) =>
      `import ${JSON.stringify(LIBVIPS_MODULE)};\nimport warrenSharpAddon from ${JSON.stringify(f.sharp)};\nlet sharp = warrenSharpAddon;\n`,
  },
  {
    name: "sharp",
    file: /\/node_modules\/sharp\/dist\/sharp\.cjs$/,
    search: "let sharp;\n",
    replacement: (f) => `require(${JSON.stringify(LIBVIPS_MODULE)});\nlet sharp = require(${JSON.stringify(f.sharp)});\n`,
  },
];

export interface NativePlugin {
  plugin: BunPlugin;
  /** Throws unless each named loader was rewritten (i.e. the bundle really contains that package). */
  assertApplied(names: Rewrite["name"][]): void;
}

export function nativePlugin(): NativePlugin {
  const files = nativeFiles();
  const applied = new Set<Rewrite["name"]>();
  const plugin: BunPlugin = {
    name: "warren-native",
    setup(build) {
      build.onResolve({ filter: /^warren-native:libvips$/ }, () => ({ path: LIBVIPS_MODULE, namespace: "warren-native" }));
      build.onLoad({ filter: /.*/, namespace: "warren-native" }, () => ({
        loader: "js",
        contents:
          `import libvips from ${JSON.stringify(files.libvips)} with { type: "file" };\n` +
          `import { dlopen } from "bun:ffi";\n` +
          // Any exported symbol will do: dlopen needs one, and the point is loading the library by its soname.
          `dlopen(libvips, { vips_version: { args: ["i32"], returns: "i32" } });\n`,
      }));
      for (const rewrite of REWRITES) {
        build.onLoad({ filter: rewrite.file }, async ({ path }) => {
          const source = await Bun.file(path).text();
          const contents = (rewrite.prepend?.(files) ?? "") + replaceOnce(source, path, rewrite.search, rewrite.replacement(files));
          applied.add(rewrite.name);
          return { loader: "js", contents };
        });
      }
    },
  };
  return {
    plugin,
    assertApplied(names) {
      const missing = names.filter((name) => !applied.has(name));
      if (missing.length) {
        throw new NativeBuildError(`native loader of ${missing.join(", ")} was never rewritten: is the package still imported, from the file the plugin expects?`);
      }
    },
  };
}
