// /settings/migration (docs/web.md, docs/federation.md "Moving accounts"): moving this account to another,
// as Mastodon's AccountMigration and MoveService do. The current password is required; the target is fetched
// afresh and must list this account in its `alsoKnownAs` (an alias set there first); a second move waits 30
// days after the last. One write sets the redirect (`moved` in the API, `movedTo` on the actor) and records
// `account.updated` (the actor goes out as an Update) and `account.moved`: its subscribers send the `Move` to
// every follower's server and carry the local followers over (move-followers.ts). A moved account's API
// answers 403 (auth/viewer.ts), as Mastodon's `functional?` does; cancelling the redirect lifts that.
import type { Deps } from "../../deps.ts";
import { getAccount, putAccount } from "../../store/accounts.ts";
import { verifyPassword } from "../auth/password.ts";
import { checkSettingsSession, type Session } from "../auth/settings.ts";
import { recordEvent } from "../events.ts";
import { resolveAcct } from "./aliases.ts";
import { Problems } from "./validation.ts";
import type { AccountRecord } from "../../model/accounts.ts";

/** Mastodon's AccountMigration::COOLDOWN_PERIOD. */
export const MOVE_COOLDOWN_MS = 30 * 24 * 60 * 60 * 1000;

export interface MigrationForm {
  acct?: string;
  current_password?: string;
}

/** When this account may move again (ms), or null when it may now. */
export function cooldownEndsAt(account: AccountRecord, now = Date.now()): number | null {
  const ends = (account.movedAt ?? 0) + MOVE_COOLDOWN_MS;
  return account.movedAt && ends > now ? ends : null;
}

/** Moves the session's account to the one `form.acct` names; a 422 (Problems) for what Mastodon refuses. */
export async function moveAccount(deps: Deps, session: Session, form: MigrationForm): Promise<AccountRecord> {
  checkSettingsSession(session);
  const account = session.account;
  const problems = new Problems();
  if (!(await verifyPassword(form.current_password ?? "", session.user.passwordHash))) problems.add("current_password", "ERR_INVALID", "is invalid");
  if (cooldownEndsAt(account)) problems.add("acct", "ERR_COOLDOWN", "cannot be moved to yet: the last move was less than 30 days ago");
  problems.throwIfAny();
  // Fetched afresh: the alias may have been set a moment ago.
  const target = await resolveAcct(deps, form.acct ?? "", true);
  const refused = refusal(account, target);
  if (refused) problems.add("acct", refused[0], refused[1]);
  problems.throwIfAny();
  return setRedirect(deps, account.id, target!);
}

/** Why `account` may not move to `target` ([code, message]), or null. */
function refusal(account: AccountRecord, target: AccountRecord | null): [string, string] | null {
  if (!target || target.suspended) return ["ERR_INVALID", "can't be resolved to an account"];
  if (target.id === account.id) return ["ERR_INVALID", "cannot be your own account"];
  if (account.movedToAccountId === target.id) return ["ERR_TAKEN", "is already where this account redirects"];
  if (target.movedToAccountId) return ["ERR_INVALID", "has itself moved to another account"];
  if (!(target.alsoKnownAs ?? []).includes(account.uri)) return ["ERR_MISSING_ALIAS", `must list this account as an alias first (${account.uri})`];
  return null;
}

async function setRedirect(deps: Deps, accountId: string, target: AccountRecord): Promise<AccountRecord> {
  return deps.store.write(() => {
    const now = Date.now();
    const account = getAccount(deps.store, accountId)!;
    const moved = { ...account, movedToAccountId: target.id, movedToUri: target.uri, movedAt: now };
    putAccount(deps.store, moved);
    recordEvent(deps, "account.updated", { accountId }, "local", now);
    recordEvent(deps, "account.moved", { accountId, targetId: target.id }, "local", now);
    return moved;
  });
}

/** Cancels the redirect (Mastodon's "cancel redirect"): the account is usable again; the cool-down stays. */
export async function cancelRedirect(deps: Deps, session: Session): Promise<AccountRecord> {
  checkSettingsSession(session);
  return deps.store.write(() => {
    const account = getAccount(deps.store, session.account.id)!;
    if (!account.movedToAccountId) return account;
    const cancelled = { ...account, movedToAccountId: null, movedToUri: null };
    putAccount(deps.store, cancelled);
    recordEvent(deps, "account.updated", { accountId: account.id });
    return cancelled;
  });
}
