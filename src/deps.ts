// What the domain is given (Deps), and what the HTTP layer, the server and the CLI hold (AppDeps). Filled in by
// the composition root (app.ts createDeps, cli/command.ts, the job contexts of src/reactions, the inbox's own
// in federation/index.ts). Tests build one per data directory.
import type { Config } from "./config.ts";
import type { Store } from "./store/db.ts";
import type { JobEnqueuer, JobQueue } from "./jobs/queue.ts";
import type { AccountRecord } from "./model/accounts.ts";
import type { StatusRecord } from "./model/statuses.ts";

export interface Deps {
  config: Config;
  store: Store;
  /** Follow-up jobs and events, inside a `store.write`: the job queue, or a worker thread's enqueuer. */
  jobs: JobEnqueuer;
  /** Accounts and statuses of other servers (federation/remote.ts fills it in). */
  remote: RemoteLookups;
}

/** Deps with the job queue itself: started and stopped by the server, listened to by the streams. */
export interface AppDeps extends Deps {
  jobs: JobQueue;
}

/**
 * What the domain asks of other servers, through its Deps (`deps.remote`): accounts and statuses it does not
 * know yet, fetched and stored. The domain never imports src/federation; the composition root fills this in
 * with federation/remote.ts (GoToSocial's single door to federation, kept as an interface here).
 */
export interface RemoteLookups {
  /**
   * The account `username@domain` of another server: stored if fresh (and `refetch` is not asked), else
   * resolved (WebFinger, actor); null when it cannot be.
   */
  account(deps: Deps, username: string, domain: string, refetch?: boolean): Promise<AccountRecord | null>;
  /** The remote account a URL names: its actor id, or any URL serving the actor; null when none. */
  accountByUrl(deps: Deps, url: string): Promise<AccountRecord | null>;
  /** The status at `url` of another server: stored already, or fetched and stored with its author and ancestors. */
  status(deps: Deps, url: URL): Promise<StatusRecord | null>;
}
