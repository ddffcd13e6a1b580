// A search for a URL of this server finds what it names: a profile (`/@alice`, `/users/alice`) or a status
// (`/@alice/<id>`, `/users/alice/statuses/<id>`). Other servers' actor URLs are resolved by search.ts (resolve=true).
import type { Deps } from "../../deps.ts";
import { normaliseId } from "../../lib/ids.ts";
import { findAccountByAcct } from "../../store/accounts.ts";
import { getStatus } from "../../store/statuses.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export type LocalUrl = { kind: "account"; account: AccountRecord } | { kind: "status"; status: StatusRecord };

const PROFILE = /^\/(?:@|users\/)([\w.-]+)\/?$/;
const STATUS = /^\/(?:@([\w.-]+)|users\/([\w.-]+)\/statuses)\/(\d+)\/?$/;

/** What a URL of this server names, if anything; null for other text, other servers and unknown paths. */
export function resolveLocalUrl(deps: Deps, q: string): LocalUrl | null {
  if (!/^https?:\/\//i.test(q)) return null;
  let url: URL;
  try {
    url = new URL(q);
  } catch {
    return null;
  }
  if (url.origin !== new URL(deps.config.url).origin) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  const status = STATUS.exec(path);
  if (status) {
    const id = normaliseId(status[3]);
    const record = id ? getStatus(deps.store, id) : undefined;
    const username = (status[1] ?? status[2])!.toLowerCase();
    const author = record ? findAccountByAcct(deps.store, username, null) : undefined;
    return record && author && record.accountId === author.id ? { kind: "status", status: record } : null;
  }
  const profile = PROFILE.exec(path);
  const account = profile ? findAccountByAcct(deps.store, profile[1]!, null) : undefined;
  return account ? { kind: "account", account } : null;
}
