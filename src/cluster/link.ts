// A server process's side of the channel to its supervisor (supervisor.ts): rate-limit counts kept by the
// supervisor, so that every process spends one budget; stream signals relayed to and from the other
// processes; "ready" once listening. Null in a process that no supervisor started (WARREN_PROCESSES=1, tests).
import type { Count, Limit } from "../http/plugins/rate-limits/windows.ts";
import { PROCESS_INDEX_ENV, type ChildMessage, type SupervisorMessage } from "./messages.ts";

export type SignalListener = (event: Record<string, unknown>) => void;

export interface ClusterLink {
  /** This process's slot. */
  readonly index: number;
  hit(limit: Limit, key: string, now: number): Promise<Count>;
  publish(event: Record<string, unknown>): void;
  onSignal(listener: SignalListener): () => void;
  ready(): void;
}

let link: ClusterLink | null | undefined;

export function clusterLink(): ClusterLink | null {
  if (link === undefined) link = process.env[PROCESS_INDEX_ENV] !== undefined && typeof process.send === "function" ? connect() : null;
  return link;
}

function connect(): ClusterLink {
  const send = (message: ChildMessage) => process.send!(message);
  const pending = new Map<number, (count: Count) => void>();
  const listeners = new Set<SignalListener>();
  let nextId = 0;
  process.on("message", (message: SupervisorMessage) => {
    if (message.type === "count") {
      pending.get(message.id)?.(message.count);
      pending.delete(message.id);
    } else if (message.type === "signal") {
      for (const listener of listeners) listener(message.event);
    }
  });
  return {
    index: Number(process.env[PROCESS_INDEX_ENV]),
    hit(limit, key, now) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        // Only what the supervisor counts by: a throttle also carries its key function.
        send({ type: "hit", id, limit: { name: limit.name, limit: limit.limit, periodSeconds: limit.periodSeconds }, key, now });
      });
    },
    publish: (event) => send({ type: "signal", event }),
    onSignal(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ready: () => send({ type: "ready" }),
  };
}
