// The server's pid in its data directory (`warren.pid`), so that commands that must not run beside it
// (`warren compact`) can tell one is running. Written at start, removed at a graceful stop; a file left by a
// killed server names a process that no longer exists and is ignored.
import { processAlive } from "./process-alive.ts";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const PID_FILE = "warren.pid";

export function writeServerPid(dataDir: string): void {
  writeFileSync(join(dataDir, PID_FILE), `${process.pid}\n`);
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
