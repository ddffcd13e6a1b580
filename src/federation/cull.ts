// `warren accounts cull [--dry-run]` (docs/cli.md), as tootctl's: each remote account's actor is asked for
// through the outgoing-fetch guard (lib/safe-fetch.ts), unsigned; a server that answers 404 or 410 says the
// actor is gone, and the account goes as an incoming Delete of the actor takes it (deleteRemoteActor). Any other
// answer, or none, keeps the account: a server that is down, or that wants signed fetches, has said nothing.
import { safeFetch } from "../lib/safe-fetch.ts";
import { getAccount, remoteAccountIdsWhere } from "../store/accounts.ts";
import type { FederationDeps } from "./context.ts";
import { FETCH_LIMITS } from "./loader.ts";
import { deleteRemoteActor } from "./remote-accounts.ts";

const ACCEPT = "application/activity+json";

export interface CullResult {
  checked: number;
  gone: string[];
  /** accounts whose server did not answer (kept) */
  unreachable: number;
}

async function answerOf(deps: FederationDeps, uri: string): Promise<number | null> {
  try {
    const response = await safeFetch(new URL(uri), { ...FETCH_LIMITS, maxBytes: 64 * 1024, allowPrivateAddresses: deps.config.allowPrivateAddresses, headers: { accept: ACCEPT } });
    return response.status;
  } catch {
    return null;
  }
}

export async function cullGoneAccounts(deps: FederationDeps, dryRun: boolean, onProgress?: (done: number, total: number) => void): Promise<CullResult> {
  const ids = remoteAccountIdsWhere(deps.store, () => true);
  const result: CullResult = { checked: 0, gone: [], unreachable: 0 };
  for (const id of ids) {
    const account = getAccount(deps.store, id);
    if (account && !account.dataDeletedAt) {
      const status = await answerOf(deps, account.uri);
      if (status === null) result.unreachable++;
      else if (status === 404 || status === 410) {
        result.gone.push(`${account.username}@${account.domain}`);
        if (!dryRun) await deleteRemoteActor(deps, new URL(account.uri));
      }
      result.checked++;
    }
    onProgress?.(result.checked, ids.length);
  }
  onProgress?.(ids.length, ids.length);
  return result;
}
