// `warren serve` with WARREN_PROCESSES > 1: starts that many server processes on the one data directory, all
// listening on the same port (SO_REUSEPORT: the kernel shares connections out), and looks after them:
// a process that dies unasked is started again; SIGTERM/SIGINT stop them all, each draining its requests;
// SIGUSR2 (`warren restart`) replaces them one at a time, the new one listening before the old one stops,
// so the port never lacks a listener. It also keeps the rate-limit counts, relays stream signals and gathers
// every process's metrics for a scrape of /metrics.
import type { Subprocess } from "bun";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { FixedWindows } from "../http/plugins/rate-limits/windows.ts";
import { log } from "../lib/log.ts";
import type { ProcessMetrics } from "../lib/metrics/processes.ts";
import type { Collected } from "../lib/metrics/registry.ts";
import { CountTotals } from "./rate-counts.ts";
import { claimServerPid, PID_FILE } from "../lib/server-pid.ts";
import { freeIdTag, ID_TAG_ENV, SERVER_ID_TAGS } from "../lib/ids.ts";
import { PROCESS_INDEX_ENV, type ChildMessage, type SupervisorMessage } from "./messages.ts";

/** How long a stopping process may drain before it is killed. */
const DRAIN_LIMIT_MS = 30_000;
/** How long a scrape of /metrics waits for each process's metrics. */
const COLLECT_LIMIT_MS = 2_000;
/** A process that dies sooner than this after starting waits longer before each new start (up to 10 s). */
const HEALTHY_AFTER_MS = 10_000;

interface Child {
  index: number;
  /** Its id tag (lib/ids.ts): no two live processes alike, a rolling restart's two in a slot included. */
  idTag: number;
  process: Subprocess;
  startedAt: number;
  /** Resolved once the process said it is listening. */
  ready: Promise<void>;
  isReady: boolean;
  markReady(): void;
  /** Asked to stop (rolling restart, shutdown): its exit is expected. */
  retiring: boolean;
}

export class Supervisor {
  private readonly slots: Child[] = [];
  private readonly children = new Set<Child>();
  /** Exact counts of the small-budget rate limits, and totals of the busy ones (rate-counts.ts). */
  private readonly windows: FixedWindows;
  private readonly counts: CountTotals;
  private readonly quickDeaths = new Map<number, number>();
  private stopping: Promise<void> | null = null;
  private rolling: Promise<void> | null = null;
  /** Metrics awaited from the processes, by request id. */
  private readonly collecting = new Map<number, (metrics: Collected[]) => void>();
  private nextCollect = 0;

  constructor(
    private readonly config: Config,
    private readonly command: string[],
  ) {
    this.windows = new FixedWindows(config.rateLimitFactor);
    this.counts = new CountTotals((others) => {
      for (const child of this.children) this.send(child, { type: "others", others: others(child.process.pid) });
    });
  }

  async start(): Promise<void> {
    // One supervisor per data directory: a second would share the port and the data with the first.
    claimServerPid(this.config.dataDir);
    const started = Array.from({ length: this.config.processes }, (_, index) => this.spawn(index));
    await Promise.all(started.map((child) => child.ready));
    log.info("warren processes ready", { processes: this.config.processes, pids: started.map((child) => child.process.pid) });
  }

  /** Replaces every process, one at a time (SIGUSR2). */
  restart(): Promise<void> {
    this.rolling ??= (async () => {
      for (let index = 0; index < this.slots.length && !this.stopping; index++) {
        const old = this.slots[index]!;
        const replacement = this.spawn(index);
        await replacement.ready;
        await this.retire(old);
      }
      log.info("rolling restart done", { pids: this.slots.map((child) => child.process.pid) });
    })().finally(() => (this.rolling = null));
    return this.rolling;
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      await Promise.all([...this.children].map((child) => this.retire(child)));
      rmSync(join(this.config.dataDir, PID_FILE), { force: true });
    })();
    return this.stopping;
  }

  private spawn(index: number): Child {
    let markReady!: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const idTag = freeIdTag([...this.children].map((child) => child.idTag), SERVER_ID_TAGS - 1, "server processes");
    const child: Child = { index, idTag, startedAt: Date.now(), ready, isReady: false, markReady, retiring: false, process: null! };
    void ready.then(() => (child.isReady = true));
    child.process = Bun.spawn({
      cmd: this.command,
      env: { ...process.env, [PROCESS_INDEX_ENV]: String(index), [ID_TAG_ENV]: String(idTag) },
      stdio: ["ignore", "inherit", "inherit"],
      ipc: (message: ChildMessage) => this.receive(child, message),
    });
    this.slots[index] = child;
    this.children.add(child);
    void child.process.exited.then((code) => this.exited(child, code));
    return child;
  }

  /** The lowest id tag no live process has (0 is a lone server's and the CLI's). */
  private receive(from: Child, message: ChildMessage): void {
    if (message.type === "ready") return from.markReady();
    if (message.type === "signal") {
      for (const child of this.children) if (child !== from) this.send(child, { type: "signal", event: message.event });
      return;
    }
    if (message.type === "counts") {
      this.counts.add(from.process.pid, message.deltas);
    } else if (message.type === "hit") {
      void this.windows.hit(message.limit, message.key, message.now).then((count) => this.send(from, { type: "count", id: message.id, count }));
    } else if (message.type === "gather") {
      void this.gather().then((processes) => this.send(from, { type: "gathered", id: message.id, processes }));
    } else if (message.type === "collected") {
      this.collecting.get(message.id)?.(message.metrics);
      this.collecting.delete(message.id);
    }
  }

  /** The metrics of the process in each slot (the ready one: a rolling restart has two in a slot for a while). */
  private async gather(): Promise<ProcessMetrics[]> {
    const asked = this.slots.filter((child) => child.isReady && !child.retiring);
    const answers = await Promise.all(
      asked.map((child) => {
        const id = this.nextCollect++;
        const answer = new Promise<Collected[] | null>((resolve) => {
          this.collecting.set(id, resolve);
          // A process that does not answer in time (busy, or exiting) is left out of this scrape.
          setTimeout(() => this.collecting.delete(id) && resolve(null), COLLECT_LIMIT_MS);
        });
        this.send(child, { type: "collect", id });
        return answer.then((metrics) => (metrics ? { index: child.index, metrics } : null));
      }),
    );
    return answers.filter((answer) => answer !== null);
  }

  private send(child: Child, message: SupervisorMessage): void {
    try {
      child.process.send(message);
    } catch {
      // Exiting: it has nothing left to answer.
    }
  }

  private async retire(child: Child): Promise<void> {
    child.retiring = true;
    child.process.kill("SIGTERM");
    const killer = setTimeout(() => child.process.kill("SIGKILL"), DRAIN_LIMIT_MS);
    await child.process.exited;
    clearTimeout(killer);
  }

  private exited(child: Child, code: number | null): void {
    this.children.delete(child);
    if (child.retiring || this.stopping || this.slots[child.index] !== child) return;
    const quick = Date.now() - child.startedAt < HEALTHY_AFTER_MS;
    const deaths = quick ? (this.quickDeaths.get(child.index) ?? 0) + 1 : 0;
    this.quickDeaths.set(child.index, deaths);
    const delay = deaths === 0 ? 0 : Math.min(100 * 2 ** deaths, 10_000);
    log.warn("warren process died; starting it again", { pid: child.process.pid, code, signal: child.process.signalCode, delayMs: delay });
    setTimeout(() => {
      // A rolling restart may be waiting for this one to be ready: its successor's readiness stands in.
      if (!this.stopping && this.slots[child.index] === child) void this.spawn(child.index).ready.then(child.markReady);
    }, delay);
  }
}

/** The command that starts one server process: this executable, with the script when not compiled. */
export function serverCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/");
  return compiled ? [process.execPath, "serve"] : [process.execPath, Bun.main, "serve"];
}
