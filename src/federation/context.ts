// What every federation module is given: the domain's Deps (the store, the config, the thread's job enqueuer —
// the server's job queue or a worker's `ctx.jobs` — and the remote resolver). Types (and one name) only, so
// any module may import it without a circle.
import type { Federation } from "@fedify/fedify";
import type { Deps } from "../deps.ts";
import type { JobMessageQueue } from "./queue.ts";

export type FederationDeps = Deps;

/** What a thread's federation is built from: a job context has these, and the federation adds `remote`. */
export type ThreadDeps = Pick<Deps, "store" | "config" | "jobs">;

/** A thread's federation (index.ts builds it) and the queue Fedify's messages go through. */
export interface WarrenFederation {
  federation: Federation<void>;
  queue: JobMessageQueue;
}

/** The identifier of the instance actor (at /users/instance.actor): no username has a "." in it. */
export const INSTANCE_ACTOR_IDENTIFIER = "instance.actor";
