// CPU time of a process and every process below it, from /proc (Linux): what a server costs whether it runs as
// one process or as a supervisor with server processes under it (WARREN_PROCESSES). Threads are included:
// a process's utime and stime count all of its threads.
import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux

function ownTicks(pid: number): number {
  // Fields after the command name (which may hold spaces, so cut at its closing parenthesis): utime, stime are 14, 15.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
    if (text) children.push(...text.split(" ").map(Number));
  }
  return children;
}

/** CPU seconds used so far by `pid` and its living descendants. */
export function treeCpuSeconds(pid: number): number {
  let ticks = 0;
  const queue = [pid];
  while (queue.length) {
    const next = queue.pop()!;
    try {
      ticks += ownTicks(next);
      queue.push(...childrenOf(next));
    } catch {
      // Exited meanwhile.
    }
  }
  return ticks / TICKS_PER_SECOND;
}
