// What every federation module is given: the domain's Deps (the store, the config, the thread's job enqueuer —
// the server's job queue or a worker's `ctx.jobs` — and the remote resolver). Types only, so any module may
// import it without a circle.
import type { Deps } from "../deps.ts";

export type FederationDeps = Deps;
