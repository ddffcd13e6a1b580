// The server's pid in its data directory (`warren.pid`): the supervisor's under WARREN_PROCESSES > 1, a lone
// server's own otherwise. Commands that must not run beside it (`warren compact`, a migration) and a second
// `warren serve` tell from it that one is running. Written at start, removed at a graceful stop; a file left
// by a killed server names a process that no longer exists and is ignored.
import { processAlive } from "./process-alive.ts";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const PID_FILE = "warren.pid";

/** A second `warren serve` on a data directory that a live one serves: it would share the data unbeknown to it. */
export class ServedElsewhereError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`another warren (pid ${pid}) serves ${dataDir}: stop it first, or run \`warren restart\` to replace its processes`);
  }
}

/** Throws ServedElsewhereError when a live process other than this one serves `dataDir`. */
export function refuseIfServed(dataDir: string): void {
  const running = runningServerPid(dataDir);
  if (running !== null && running !== process.pid) throw new ServedElsewhereError(dataDir, running);
}

/**
 * Records this process as the server of `dataDir`, or throws ServedElsewhereError. The file is created
 * exclusively, so of two starts at the same moment one is refused; a stale file (its process gone) is
 * removed first. (Two starts that both find the same stale file can still both remove it: a narrow case.)
 */
export function claimServerPid(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, PID_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= 3) throw error;
    }
    refuseIfServed(dataDir);
    rmSync(path, { force: true }); // stale, or this process's own
  }
}

/** Removes the pid file if it is this process's own (another server may have taken the directory since). */
export function removeServerPid(dataDir: string): void {
  if (runningServerPid(dataDir) === process.pid) rmSync(join(dataDir, PID_FILE), { force: true });
}

/** The pid of a live process recorded as the server of `dataDir`, or null. */
export function runningServerPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, PID_FILE), "utf8").trim());
  } catch {
    return null;
  }
  return Number.isSafeInteger(pid) && pid > 0 && processAlive(pid) ? pid : null;
}
