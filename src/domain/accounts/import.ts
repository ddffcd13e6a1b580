// /settings/import (docs/web.md): a CSV file of follows, blocks or mutes becomes an import: its rows are
// stored with a record of the progress, and `account.import_requested` has the accounts.import subscriber
// (backfill lane) work through them in batches, one transaction of progress each: processed/total and
// failures, shown on the page. Each batch removes its rows as it counts them, so a run cut short goes on where
// it stopped; following, blocking and muting are idempotent. `user@domain` is looked up among known accounts,
// then through the federation's resolver (WebFinger); an address that cannot be resolved counts as a failure.
// Overwrite first undoes the relationships of that kind whose account is not in the file.
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { UploadedFile } from "../../lib/uploaded-file.ts";
import { findAccountByAcct, getAccount } from "../../store/accounts.ts";
import { END } from "../../store/db.ts";
import {
  allImportRows,
  getImport,
  importsOf,
  nextImportRows,
  putImport,
  putImportRows,
  removeImport,
  removeImportRow,
  type ImportRow,
} from "../../store/imports.ts";
import { checkSettingsSession, type Session } from "../auth/settings.ts";
import { recordEvent, type DomainEvent, type SubscriberContext } from "../events.ts";
import { block, unblock } from "../relationships/block.ts";
import { follow, unfollow } from "../relationships/follow.ts";
import { mute, unmute } from "../relationships/mute.ts";
import { parseImportFile } from "./import-csv.ts";
import type { AccountRecord, ImportRecord, ImportType } from "../../model/accounts.ts";

export const IMPORT_TYPES = ["following", "blocking", "muting"] as const;
export const IMPORT_MODES = ["merge", "overwrite"] as const;
/** Imports kept per account for the page; older ones are forgotten as new ones start. */
const KEPT = 5;
/** Rows per batch: remote lookups make each slow, and progress is saved after each batch. */
const BATCH = 25;

export interface ImportForm {
  type?: string;
  mode?: string;
  data?: unknown;
}

/** The page's list: the newest imports first. */
export const recentImports = (deps: Pick<Deps, "store">, accountId: string): ImportRecord[] => importsOf(deps.store, accountId, KEPT);

/** Checks and stores the file's rows; throws a 422 with what is wrong. */
export async function startImport(deps: Deps, session: Session, input: ImportForm, now = Date.now()): Promise<ImportRecord> {
  checkSettingsSession(session);
  const type = IMPORT_TYPES.find((t) => t === input.type);
  const mode = IMPORT_MODES.find((m) => m === input.mode);
  if (!type) throw new Unprocessable("Choose what the file lists: following, blocking or muting");
  if (!mode) throw new Unprocessable("Choose whether to merge or overwrite");
  if (!(input.data instanceof UploadedFile) || input.data.size === 0) throw new Unprocessable("Choose a file to upload");
  const parsed = parseImportFile(await input.data.bytes(), type);
  const record: ImportRecord = {
    v: 1,
    id: newId(now),
    accountId: session.account.id,
    type,
    mode,
    total: parsed.rows.length + parsed.invalid,
    processed: parsed.invalid,
    failures: parsed.invalid,
    cleared: mode === "merge",
    createdAt: now,
    finishedAt: null,
  };
  await deps.store.write(() => {
    for (const old of importsOf(deps.store, record.accountId, 100).slice(KEPT - 1)) if (old.finishedAt !== null) removeImport(deps.store, old);
    putImport(deps.store, record);
    putImportRows(deps.store, record.id, parsed.rows);
    recordEvent(deps, "account.import_requested", { accountId: record.accountId, importId: record.id }, "local", now);
  });
  return record;
}

const acctOf = (deps: Pick<Deps, "config">, account: AccountRecord) => `${account.username}@${account.domain ?? deps.config.domain}`.toLowerCase();

/** The account a row names, or null: known ones first, then other servers (deps.remote). */
async function resolveRow(ctx: SubscriberContext, row: ImportRow): Promise<AccountRecord | null> {
  const at = row.acct.indexOf("@");
  const username = row.acct.slice(0, at);
  const host = row.acct.slice(at + 1);
  const domain = host === ctx.config.domain.toLowerCase() ? null : host;
  const known = findAccountByAcct(ctx.store, username, domain);
  if (known || domain === null) return known && !known.suspended ? known : null;
  try {
    const account = await ctx.remote.account(ctx, username, domain);
    return account && !account.suspended ? account : null;
  } catch {
    return null;
  }
}

async function apply(deps: Deps, type: ImportType, actor: AccountRecord, target: AccountRecord, row: ImportRow): Promise<void> {
  if (type === "following") await follow(deps, actor, target, { reblogs: row.reblogs, notify: row.notify, languages: row.languages ?? null });
  else if (type === "blocking") await block(deps, actor, target);
  else await mute(deps, actor, target, { notifications: row.notifications ?? true, durationSeconds: 0 });
}

/** Overwrite: undoes the relationships of the import's kind with accounts the file does not list. */
async function clearOthers(ctx: SubscriberContext, record: ImportRecord, actor: AccountRecord): Promise<void> {
  const wanted = new Set<string>();
  for (const row of allImportRows(ctx.store, record.id)) wanted.add(row.acct);
  const keyspace = record.type === "following" ? ctx.store.db.follows : record.type === "blocking" ? ctx.store.db.blocks : ctx.store.db.mutes;
  const targets: string[] = [];
  for (const key of keyspace.getKeys({ start: [actor.id], end: [actor.id, END] })) targets.push((key as string[])[1]!);
  for (const targetId of targets) {
    const target = getAccount(ctx.store, targetId);
    if (!target || wanted.has(acctOf(ctx, target))) continue;
    if (record.type === "following") await unfollow(ctx, actor, target);
    else if (record.type === "blocking") await unblock(ctx, actor, target);
    else await unmute(ctx, actor, target);
  }
  await ctx.store.write(() => {
    const current = getImport(ctx.store, record.accountId, record.id);
    if (current) putImport(ctx.store, { ...current, cleared: true });
  });
}

/** The accounts.import subscriber. Idempotent: goes on with the rows not yet counted. */
export async function runImport(ctx: SubscriberContext, event: DomainEvent<"account.import_requested">): Promise<void> {
  const { accountId, importId } = event.payload;
  const first = getImport(ctx.store, accountId, importId);
  if (!first || first.finishedAt !== null) return;
  const actor = getAccount(ctx.store, accountId);
  if (!actor || actor.suspended) {
    await ctx.store.write(() => removeImport(ctx.store, first));
    return;
  }
  if (!first.cleared) await clearOthers(ctx, first, actor);
  for (;;) {
    const batch = nextImportRows(ctx.store, importId, BATCH);
    const failed = new Set<unknown[]>();
    for (const { key, row } of batch) {
      const target = await resolveRow(ctx, row);
      try {
        if (!target || target.id === actor.id) throw new Error("unresolved");
        await apply(ctx, first.type, actor, target, row);
      } catch {
        failed.add(key);
      }
    }
    await ctx.store.write(() => {
      const current = getImport(ctx.store, accountId, importId);
      if (!current) return;
      // Only rows still there count: a run overlapping this one (a retry after a time-out) may have counted some.
      let processed = 0;
      let failures = 0;
      for (const { key } of batch) {
        if (!removeImportRow(ctx.store, key)) continue;
        processed++;
        if (failed.has(key)) failures++;
      }
      const done = batch.length < BATCH || nextImportRows(ctx.store, importId, 1).length === 0;
      putImport(ctx.store, { ...current, processed: current.processed + processed, failures: current.failures + failures, finishedAt: done ? (current.finishedAt ?? Date.now()) : null });
    });
    if (batch.length < BATCH) return;
  }
}
