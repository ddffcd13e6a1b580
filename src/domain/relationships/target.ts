// The account an action names by id in its path. Unknown ids and local accounts that are not yet usable
// (unconfirmed or unapproved sign-ups) are 404, as everywhere (domain/accounts/read.ts).
import { NotFound } from "../../lib/errors.ts";
import { normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { accountVisible } from "../accounts/read.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export interface TargetOptions {
  /** Following a suspended account is 404; blocking, muting or unfollowing one is allowed. */
  allowSuspended?: boolean;
}

export function findTargetAccount(store: Store, rawId: string, options: TargetOptions = {}): AccountRecord {
  const id = normaliseId(rawId);
  const account = id ? getAccount(store, id) : undefined;
  if (!account || !accountVisible(store, account)) throw new NotFound();
  if (account.suspended && !options.allowSuspended) throw new NotFound();
  return account;
}
