// A server process's side of the channel to its supervisor (supervisor.ts): rate-limit counts shared with
// the other processes, so that they spend one budget (rate-counts.ts); stream signals relayed to and from the other
// processes; /metrics gathered from every process; "ready" once listening. Null in a process that no supervisor started (WARREN_PROCESSES=1, tests).
import type { Count, Limit } from "../http/plugins/rate-limits/windows.ts";
import type { Collected } from "../lib/metrics/registry.ts";
import type { ProcessMetrics } from "../lib/metrics/processes.ts";
import { EXACT_BELOW, SyncedCounts } from "./rate-counts.ts";
import { PROCESS_INDEX_ENV, type ChildMessage, type SupervisorMessage } from "./messages.ts";

export type SignalListener = (event: Record<string, unknown>) => void;

export interface ClusterLink {
  /** This process's slot. */
  readonly index: number;
  /** Rate-limit counting shared with the other processes (rate-counts.ts). */
  rateWindows(factor: number): { hit(limit: Limit, key: string, now: number): Promise<Count> };
  publish(event: Record<string, unknown>): void;
  onSignal(listener: SignalListener): () => void;
  ready(): void;
  /** What this process answers when the supervisor collects metrics (set by the /metrics route). */
  collectWith(collector: () => Collected[]): void;
  /** Every process's metrics, this one's included. */
  gather(): Promise<ProcessMetrics[]>;
}

let link: ClusterLink | null | undefined;

export function clusterLink(): ClusterLink | null {
  if (link === undefined) link = process.env[PROCESS_INDEX_ENV] !== undefined && typeof process.send === "function" ? connect() : null;
  return link;
}

function connect(): ClusterLink {
  const send = (message: ChildMessage) => process.send!(message);
  /** Answers awaited from the supervisor, by request id. */
  const pending = new Map<number, (answer: any) => void>();
  const listeners = new Set<SignalListener>();
  let collector: () => Collected[] = () => [];
  let nextId = 0;
  let counts: SyncedCounts | null = null;
  const ask = <T>(message: (id: number) => ChildMessage) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      send(message(id));
    });
  const answered = (id: number, answer: unknown) => {
    pending.get(id)?.(answer);
    pending.delete(id);
  };
  process.on("message", (message: SupervisorMessage) => {
    if (message.type === "count") answered(message.id, message.count);
    else if (message.type === "others") counts?.heard(message.others);
    else if (message.type === "gathered") answered(message.id, message.processes);
    else if (message.type === "collect") send({ type: "collected", id: message.id, metrics: collector() });
    else if (message.type === "signal") for (const listener of listeners) listener(message.event);
  });
  return {
    index: Number(process.env[PROCESS_INDEX_ENV]),
    rateWindows(factor) {
      counts ??= new SyncedCounts(factor, (deltas) => send({ type: "counts", deltas }));
      const synced = counts;
      return {
        hit: (limit, key, now) =>
          limit.limit < EXACT_BELOW
            ? // Only what the supervisor counts by: a throttle also carries its key function.
              ask((id) => ({ type: "hit", id, limit: { name: limit.name, limit: limit.limit, periodSeconds: limit.periodSeconds }, key, now }))
            : Promise.resolve(synced.hit(limit, key, now)),
      };
    },
    publish: (event) => send({ type: "signal", event }),
    onSignal(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ready: () => send({ type: "ready" }),
    collectWith(next) {
      collector = next;
    },
    gather: () => ask((id) => ({ type: "gather", id })),
  };
}
