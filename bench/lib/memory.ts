// A child process's resident memory, from /proc (Linux): all of it, and the anonymous part (the heap; LMDB's
// memory map is file-backed and not counted there).
import { readFileSync } from "node:fs";

export interface Memory {
  rssMb: number;
  anonMb: number;
}

export function memoryOf(pid: number): Memory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    return { rssMb: kb("VmRSS") / 1024, anonMb: kb("RssAnon") / 1024 };
  } catch {
    return null;
  }
}
