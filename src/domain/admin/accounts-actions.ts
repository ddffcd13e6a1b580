// What staff (and the operator's `warren accounts …`) do to accounts: Mastodon's Admin::AccountsController
// verbs (approve, reject, enable, unsilence, unsuspend, unsensitive, destroy) and Admin::AccountAction
// (none, disable, sensitive, silence, suspend, with a warning its owner is mailed). Each is one write that
// re-reads the records inside it; follow-up work is recorded as events (docs/admin.md, docs/events.md).
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, putAccount, putUser } from "../../store/accounts.ts";
import { removeAccountRecords } from "../../store/admin-accounts.ts";
import { insertAccountWarning } from "../../store/admin.ts";
import { revokeToken, tokensOf } from "../../store/oauth.ts";
import { removeWebSessionsOf } from "../../store/web-sessions.ts";
import { recordEvent } from "../events.ts";
import { adminAccountView, findAdminAccount, type AdminAccountView } from "./accounts-read.ts";
import { ensure, mayDecideSignUp, mayDeleteData, mayDisable, mayModerate, mayUnsuspend, staffCan, type Staff } from "./accounts-policy.ts";
import { resolveReportsOfAction } from "./accounts-reports.ts";
import { removeAccountData } from "./accounts-removal.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";
import type { WarningAction } from "../../model/moderation.ts";

type ActionDeps = Pick<Deps, "store" | "jobs" | "config">;

/** Re-reads the account (and its user) inside the write; the account may have gone meanwhile. */
function current(store: Store, accountId: string): AdminAccountView {
  const account = getAccount(store, accountId);
  if (!account) throw new NotFound();
  return adminAccountView(store, account);
}

/** Every access token and browser session of the account ends. */
function revokeAllTokens(store: Store, accountId: string, now: number): void {
  for (const token of tokensOf(store, accountId)) if (!token.revokedAt) revokeToken(store, token, now);
  removeWebSessionsOf(store, accountId);
}

/**
 * One write: `change` returns the new account and user records (or the same ones when nothing changes), and
 * may record events; `account.updated` is recorded when the account record changed, so search and caches follow.
 */
async function change(
  deps: ActionDeps,
  rawId: string,
  check: (view: AdminAccountView) => void,
  apply: (view: AdminAccountView, now: number) => { account?: AccountRecord; user?: UserRecord | null },
): Promise<AdminAccountView> {
  const { store } = deps;
  const id = findAdminAccount(deps, rawId).account.id;
  return store.write(() => {
    const view = current(store, id);
    check(view);
    const now = Date.now();
    const next = apply(view, now);
    const account = next.account ?? view.account;
    const user = next.user === undefined ? view.user : next.user;
    if (account !== view.account) {
      putAccount(store, account);
      recordEvent(deps, "account.updated", { accountId: account.id });
    }
    if (user && user !== view.user) putUser(store, user);
    return adminAccountView(store, account, user);
  });
}

/** Approves a pending local sign-up (403 for remote accounts and users approved already). */
export function approveAccount(deps: ActionDeps, staff: Staff, rawId: string): Promise<AdminAccountView> {
  return change(
    deps,
    rawId,
    ({ account, user }) => ensure(mayDecideSignUp(staff, account, user)),
    ({ user }) => ({ user: { ...user!, approved: true } }),
  );
}

/** Turns a pending local sign-up down: the account and user are forgotten, their name and address free again. */
export async function rejectAccount(deps: ActionDeps, staff: Staff, rawId: string): Promise<void> {
  const { store } = deps;
  const id = findAdminAccount(deps, rawId).account.id;
  await store.write(() => {
    const { account, user } = current(store, id);
    ensure(mayDecideSignUp(staff, account, user));
    revokeAllTokens(store, id, Date.now());
    removeAccountRecords(store, id);
  });
}

/** Lets a disabled local user sign in again (403 for remote accounts). */
export function enableAccount(deps: ActionDeps, staff: Staff, rawId: string): Promise<AdminAccountView> {
  return change(
    deps,
    rawId,
    ({ account, user }) => ensure(staffCan(staff, "manage_users") && account.domain === null && !!user),
    ({ user }) => (user!.disabled ? { user: { ...user!, disabled: false } } : {}),
  );
}

export function unsilenceAccount(deps: ActionDeps, staff: Staff, rawId: string): Promise<AdminAccountView> {
  return change(
    deps,
    rawId,
    () => ensure(staffCan(staff, "manage_users")),
    ({ account }) => (account.silenced ? { account: { ...account, silenced: false, silencedAt: null } } : {}),
  );
}

export function unsensitiveAccount(deps: ActionDeps, staff: Staff, rawId: string): Promise<AdminAccountView> {
  return change(
    deps,
    rawId,
    () => ensure(staffCan(staff, "manage_users")),
    ({ account }) => (account.sensitized ? { account: { ...account, sensitized: false, sensitizedAt: null } } : {}),
  );
}

/**
 * Lifts a suspension this server made, while the data is still there: everything the account had shows
 * again (read paths only ever hid it), and the pending removal finds the suspension it was for gone.
 */
export function unsuspendAccount(deps: ActionDeps, staff: Staff, rawId: string): Promise<AdminAccountView> {
  return change(
    deps,
    rawId,
    ({ account }) => ensure(mayUnsuspend(staff, account)),
    ({ account }) => ({ account: { ...account, suspended: false, suspendedAt: null, suspensionOrigin: null } }),
  );
}

/**
 * Deletes a suspended account's data now instead of after the retention (DELETE /api/v1/admin/accounts/:id):
 * the account stays, suspended for good, so its name stays taken; its user keeps the address reserved but
 * loses every token. The removal itself is the `account.data_deletion` subscriber's.
 */
export async function deleteAccountData(deps: ActionDeps, staff: Staff, rawId: string): Promise<void> {
  await change(
    deps,
    rawId,
    ({ account }) => ensure(mayDeleteData(staff, account)),
    ({ account, user }, now) => {
      revokeAllTokens(deps.store, account.id, now);
      recordEvent(deps, "account.data_deletion", { accountId: account.id });
      return { account: { ...account, dataDeletedAt: now }, user: user ? { ...user, disabled: true } : user };
    },
  );
}

const DAY_MS = 86_400_000;

export const ACTION_TYPES = ["none", "disable", "sensitive", "silence", "suspend"] as const;

export interface AccountActionInput {
  type?: string;
  reportId?: string;
  warningPresetId?: string;
  text?: string;
  /** default true: the owner of a local account is told by e-mail */
  sendEmailNotification?: boolean;
}

/** Mastodon's AccountWarning texts are not limited; this keeps a stored warning (and its e-mail) reasonable. */
export const MAX_WARNING_TEXT = 5000;

function actionType(input: AccountActionInput, account: AccountRecord): WarningAction {
  const allowed: readonly string[] = account.domain === null ? ACTION_TYPES : ["sensitive", "silence", "suspend"];
  if (!input.type || !allowed.includes(input.type)) throw new Unprocessable("Validation failed: Type is not included in the list");
  return input.type as WarningAction;
}

/** The account record after `type` (the same object when it changes nothing). */
function applyType(type: WarningAction, account: AccountRecord, now: number): AccountRecord {
  switch (type) {
    case "sensitive":
      return account.sensitized ? account : { ...account, sensitized: true, sensitizedAt: now };
    case "silence":
      return account.silenced ? account : { ...account, silenced: true, silencedAt: now };
    case "suspend":
      return account.suspended ? account : { ...account, suspended: true, suspendedAt: now, suspensionOrigin: "local" };
    default:
      return account;
  }
}

/**
 * POST /api/v1/admin/accounts/:id/action. `none` and `disable` are for local accounts only (422 otherwise).
 * A warning is kept for every action; with send_email_notification (the default) the owner of a local
 * account is mailed it. Unresolved reports about the account are resolved (for `none`, only report_id's).
 */
export async function performAccountAction(deps: ActionDeps, staff: Staff, rawId: string, input: AccountActionInput): Promise<void> {
  const { store } = deps;
  const target = findAdminAccount(deps, rawId);
  const type = actionType(input, target.account);
  // There are no warning presets on this server: any preset named is an unknown record, as on Mastodon.
  if (input.warningPresetId) throw new NotFound();
  const text = (input.text ?? "").trim();
  if ([...text].length > MAX_WARNING_TEXT) throw new Unprocessable(`Validation failed: Text is too long (maximum is ${MAX_WARNING_TEXT} characters)`);
  await store.write(() => {
    const { account, user } = current(store, target.account.id);
    ensure(type === "disable" ? mayDisable(staff, user) : mayModerate(staff, user));
    const now = Date.now();
    const reportId = resolveReportsOfAction(store, staff, account, type, input.reportId ?? null, now);
    const next = applyType(type, account, now);
    if (next !== account) {
      putAccount(store, next);
      recordEvent(deps, "account.updated", { accountId: account.id });
      if (type === "suspend") {
        const removeAt = now + deps.config.suspensionRetentionDays * DAY_MS;
        recordEvent(deps, "account.suspended", { accountId: account.id, suspendedAt: now, removeAt });
      }
    }
    if (type === "disable" && user && !user.disabled) putUser(store, { ...user, disabled: true });
    // Their tokens answer 403 until lifted (API.md §1.1); browser sessions end at once.
    if (type === "disable" || type === "suspend") removeWebSessionsOf(store, account.id);
    const warningId = newId(now);
    insertAccountWarning(store, {
      v: 1,
      id: warningId,
      accountId: account.id,
      actorId: staff?.account.id ?? null,
      action: type,
      text,
      reportId,
      createdAt: now,
    });
    if ((input.sendEmailNotification ?? true) && account.domain === null && user) {
      recordEvent(deps, "account.warned", { accountId: account.id, warningId });
    }
  });
}

/**
 * `warren accounts delete USERNAME` (tootctl's): suspends the account if it is not, marks its data deleted,
 * locks its user out, and removes the data right here, in the operator's process. The account record stays,
 * suspended, so the name is never reused; the address stays reserved with the user.
 */
export async function deleteAccountNow(deps: Pick<Deps, "store" | "jobs" | "config">, accountId: string): Promise<void> {
  await change(
    deps,
    accountId,
    () => {},
    ({ account, user }, now) => {
      revokeAllTokens(deps.store, account.id, now);
      const suspended = account.suspended ? account : { ...account, suspended: true, suspendedAt: now, suspensionOrigin: "local" as const };
      // Its subscribers send the actor's Delete (and find nothing left to remove once the removal below is done).
      recordEvent(deps, "account.data_deletion", { accountId: account.id });
      return { account: { ...suspended, dataDeletedAt: now }, user: user ? { ...user, disabled: true } : user };
    },
  );
  await removeAccountData(deps, accountId, null);
}
