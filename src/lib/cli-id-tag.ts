// A CLI command writes records beside a running server, and beside other CLI commands: each claims an id tag
// of its own (lib/ids.ts) for as long as it runs, so no two of them mint the same id in the same millisecond.
// A claim is a file <data>/tmp/id-tags/<tag> holding the claimer's pid, created exclusively and removed at exit.
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_ID_TAGS } from "./ids.ts";
import { processAlive } from "./process-alive.ts";

const TAGS_DIR = ["tmp", "id-tags"];

/** Claims a free CLI id tag; 0 (the tag of processes that claim none) when all are held by live commands. */
export function claimCliIdTag(dataDir: string): number {
  const dir = join(dataDir, ...TAGS_DIR);
  mkdirSync(dir, { recursive: true });
  // Free tags first; a tag left by a command that died is taken only when no free one is left.
  for (const takeStale of [false, true]) {
    for (let tag = CLI_ID_TAGS.first; tag <= CLI_ID_TAGS.last; tag++) {
      const path = join(dir, String(tag));
      if (takeStale && !heldByLiveProcess(path)) rmSync(path, { force: true });
      try {
        writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      } catch {
        continue;
      }
      process.on("exit", () => release(path, dataDir));
      return tag;
    }
  }
  return 0;
}

function heldByLiveProcess(path: string): boolean {
  try {
    return processAlive(Number(readFileSync(path, "utf8")));
  } catch {
    return false;
  }
}

/** Removes the claim, and its folders when nothing else is in them (a data directory keeps no trace of it). */
function release(path: string, dataDir: string): void {
  rmSync(path, { force: true });
  for (const depth of [2, 1]) {
    try {
      rmdirSync(join(dataDir, ...TAGS_DIR.slice(0, depth)));
    } catch {
      return; // not empty: another claim, or uploads in progress
    }
  }
}
