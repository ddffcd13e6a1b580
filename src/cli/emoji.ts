// `warren emoji import PATH [--shortcode=CODE] [--category=NAME] [--unlisted] [--overwrite] | list | remove CODE`
// (docs/instance.md#custom-emojis), as tootctl's `emoji import`. PATH is one image (its shortcode from
// --shortcode, else its file name) or a directory, whose PNG, GIF and WebP files are imported by file name.
// Exit codes: 0 ok, 1 failed (some emoji refused), 64 usage.
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, join } from "node:path";
import type { Deps } from "../deps.ts";
import { Failure, runSubcommand, UsageError } from "./command.ts";
import { checkEmojiSize, deleteEmoji, everyEmoji, importEmoji } from "../domain/emojis/import.ts";
import { ApiError } from "../lib/errors.ts";

const USAGE = `usage:
  warren emoji import FILE.png|FILE.gif|FILE.webp|DIRECTORY [--shortcode=CODE] [--category=NAME] [--unlisted] [--overwrite]
  warren emoji list
  warren emoji remove SHORTCODE
`;
const IMAGE_EXTENSIONS = new Set([".png", ".gif", ".webp"]);

function parse(args: string[]): { paths: string[]; options: Map<string, string> } {
  const options = new Map<string, string>();
  for (const arg of args.filter((a) => a.startsWith("--"))) {
    const [name, ...value] = arg.split("=");
    if (!["--shortcode", "--category", "--unlisted", "--overwrite"].includes(name!)) throw new UsageError(`unknown option ${name}`);
    options.set(name!, value.join("="));
  }
  return { paths: args.filter((a) => !a.startsWith("--")), options };
}

async function importCommand(deps: Deps, args: string[]): Promise<void> {
  const { paths, options } = parse(args);
  if (paths.length !== 1) throw new UsageError("emoji import needs exactly one FILE or DIRECTORY");
  const path = paths[0]!;
  const info = await stat(path).catch(() => null);
  if (!info) throw new Failure(`no such file or directory: ${path}`);
  let files: { file: string; shortcode: string }[];
  if (info.isDirectory()) {
    if (options.has("--shortcode")) throw new UsageError("--shortcode names one file, not a directory");
    const names = (await readdir(path)).filter((n) => IMAGE_EXTENSIONS.has(extname(n).toLowerCase())).sort();
    files = names.map((n) => ({ file: join(path, n), shortcode: basename(n, extname(n)) }));
  } else {
    files = [{ file: path, shortcode: options.get("--shortcode") || basename(path, extname(path)) }];
  }
  let failed = 0;
  for (const { file, shortcode } of files) {
    try {
      // A file far over the limit is refused before it is read into memory.
      checkEmojiSize((await stat(file)).size);
      await importEmoji(deps, await readFile(file), shortcode, {
        category: options.get("--category") ?? null,
        visibleInPicker: !options.has("--unlisted"),
        overwrite: options.has("--overwrite"),
      });
      process.stdout.write(`imported :${shortcode}:\n`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      failed++;
      process.stderr.write(`${basename(file)}: ${error.message}\n`);
    }
  }
  process.stdout.write(`${files.length - failed} imported, ${failed} refused\n`);
  if (failed) throw new Failure(`${failed} refused`);
}

async function list(deps: Deps, args: string[]): Promise<void> {
  if (args.length) throw new UsageError("emoji list takes no arguments");
  for (const e of everyEmoji(deps)) process.stdout.write(`:${e.shortcode}:\t${e.category ?? "-"}\t${e.visibleInPicker ? "listed" : "unlisted"}\t${e.file}\n`);
}

async function remove(deps: Deps, args: string[]): Promise<void> {
  if (args.length !== 1) throw new UsageError("emoji remove needs exactly one SHORTCODE");
  await deleteEmoji(deps, args[0]!.replace(/^:|:$/g, ""));
  process.stdout.write("OK\n");
}

export function runEmojiCommand(args: string[]): Promise<number> {
  return runSubcommand("emoji", USAGE, { import: importCommand, list, remove }, args);
}
