// WebFinger (RFC 7033) for local accounts: which account a `resource` names. Accepted forms, as Mastodon's:
// `acct:alice@domain`, `alice@domain`, the actor URI (`https://domain/users/alice`) and the profile URL
// (`https://domain/@alice`). Anything else is a bad request (400); another domain, an unknown or hidden
// account is not found (404).
import type { Deps } from "../../deps.ts";
import { BadRequest, NotFound } from "../../lib/errors.ts";
import { findAccountByAcct } from "../../store/accounts.ts";
import { accountVisible, parseAcct } from "../accounts/read.ts";
import type { AccountRecord } from "../../model/accounts.ts";

const LOCAL_PATHS = [/^\/users\/([^/]+)\/?$/, /^\/@([^/]+)\/?$/];

function usernameFromUrl(deps: Deps, resource: string): string {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new BadRequest("Invalid resource");
  }
  if (url.host.toLowerCase() !== deps.config.domain.toLowerCase()) throw new NotFound();
  for (const pattern of LOCAL_PATHS) {
    const match = pattern.exec(url.pathname);
    if (match) return decodeURIComponent(match[1]!);
  }
  throw new NotFound();
}

function usernameFromAcct(deps: Deps, resource: string): string {
  const parsed = parseAcct(deps, resource);
  if (!parsed) throw new BadRequest("Invalid resource");
  if (parsed.domain !== null) throw new NotFound();
  return parsed.username;
}

export function webfingerAccount(deps: Deps, resource: string | undefined): AccountRecord {
  const text = resource?.trim();
  if (!text) throw new BadRequest("param is missing or the value is empty: resource");
  let username: string;
  if (/^https?:\/\//i.test(text)) username = usernameFromUrl(deps, text);
  else if (/^acct:/i.test(text) || text.includes("@")) username = usernameFromAcct(deps, text);
  else throw new BadRequest("Invalid resource");
  const account = findAccountByAcct(deps.store, username, null);
  if (!account || !accountVisible(deps.store, account)) throw new NotFound();
  return account;
}
