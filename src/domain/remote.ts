// What the domain asks of other servers, through its Deps (`deps.remote`): accounts and statuses it does not
// know yet, fetched and stored. The domain never imports src/federation; the composition root fills this in
// with federation/remote.ts (GoToSocial's single door to federation, kept as an interface here).
import type { Deps } from "../deps.ts";
import type { AccountRecord } from "../model/accounts.ts";
import type { StatusRecord } from "../model/statuses.ts";

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
