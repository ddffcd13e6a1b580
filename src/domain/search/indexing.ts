// Keeping the search index in step with the records (docs/search.md, "What is indexed, and when"): the
// subscribers of src/reactions call these as things happen, each with the events of one job batch at once
// (one engine write per batch), and `warren search deploy` rebuilds everything from the records. All of it
// is idempotent: indexing a document again replaces it, removing one that is gone changes nothing. The
// index may lag behind the records; searches check every candidate against the records afterwards
// (domain/search/search.ts), so a lagging index never shows what it should not.
import type { Config } from "../../config.ts";
import { searchEngineFor } from "../../search/index.ts";
import type { AccountDocument, SearchEngine, StatusDocument } from "../../search/engine.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, getAccounts } from "../../store/accounts.ts";
import { accountIdsAfter, countStoredAccounts } from "../../store/accounts-counters.ts";
import { getStatus } from "../../store/statuses.ts";
import { countStoredStatuses, statusIdsAfter } from "../../store/statuses-counters.ts";
import { accountDocument, sharesTags, statusDocument, tagDocuments } from "./documents.ts";

export interface IndexingContext {
  store: Store;
  config: Pick<Config, "meilisearch">;
}

const engineOf = (ctx: IndexingContext): SearchEngine => searchEngineFor(ctx.store, ctx.config);

/** `status.created`: indexes new statuses (reblogs and statuses deleted meanwhile are left out) and the hashtags they share. */
export async function indexStatuses(ctx: IndexingContext, statusIds: readonly string[]): Promise<void> {
  const documents: StatusDocument[] = [];
  const tags = new Set<string>();
  for (const id of new Set(statusIds)) {
    const status = getStatus(ctx.store, id);
    if (!status) continue;
    const document = statusDocument(ctx.store, status);
    if (document) documents.push(document);
    if (sharesTags(status)) for (const tag of status.tags) tags.add(tag);
  }
  const engine = engineOf(ctx);
  await engine.indexStatuses(documents);
  if (tags.size) await engine.indexTags(tagDocuments(ctx.store, tags));
}

/** `status.deleted`: takes statuses out of the index. */
export async function unindexStatuses(ctx: IndexingContext, statusIds: readonly string[]): Promise<void> {
  await engineOf(ctx).removeStatuses([...new Set(statusIds)]);
}

/** `account.created`, `account.updated`: indexes accounts as they are now. */
export async function indexAccounts(ctx: IndexingContext, accountIds: readonly string[]): Promise<void> {
  const documents = [...new Set(accountIds)].flatMap((id) => {
    const account = getAccount(ctx.store, id);
    return account ? [accountDocument(account)] : [];
  });
  await engineOf(ctx).indexAccounts(documents);
}

// warren search deploy

/** Records read and indexed per engine call: one LMDB write (or one Meilisearch task) each. */
const DEPLOY_BATCH = 2000;

export interface DeployResult {
  accounts: number;
  statuses: number;
  tags: number;
}

/** Called after each batch with the records done so far and their total when the rebuild started. */
export type DeployProgress = (done: number, total: number) => void;

/**
 * Empties the index and indexes every account and status record again, in batches (the accounts first,
 * then the statuses oldest first, then the hashtags they share). Safe while the server runs: what happens
 * meanwhile is indexed by the subscribers as usual; searches find less until the rebuild is done.
 */
export async function deploySearchIndex(ctx: IndexingContext, progress: DeployProgress = () => {}): Promise<DeployResult> {
  const engine = engineOf(ctx);
  const { store } = ctx;
  const total = countStoredAccounts(store) + countStoredStatuses(store);
  const result: DeployResult = { accounts: 0, statuses: 0, tags: 0 };
  let done = 0;
  const step = (n: number) => {
    done += n;
    progress(done, Math.max(total, done));
  };
  await engine.clear();

  let after: string | null = null;
  for (;;) {
    const ids = accountIdsAfter(store, after, DEPLOY_BATCH);
    if (!ids.length) break;
    const documents: AccountDocument[] = getAccounts(store, ids).map(accountDocument);
    await engine.indexAccounts(documents);
    result.accounts += documents.length;
    after = ids[ids.length - 1]!;
    step(ids.length);
  }

  // Statuses: each batch is read while the one before is being written.
  const tags = new Set<string>();
  let writing: Promise<void> | null = null;
  after = null;
  for (;;) {
    const ids = statusIdsAfter(store, after, DEPLOY_BATCH);
    if (!ids.length) break;
    const documents: StatusDocument[] = [];
    for (const id of ids) {
      const status = getStatus(store, id);
      if (!status) continue;
      const document = statusDocument(store, status);
      if (document) documents.push(document);
      if (sharesTags(status)) for (const tag of status.tags) tags.add(tag);
    }
    await writing;
    writing = engine.indexStatuses(documents);
    result.statuses += documents.length;
    after = ids[ids.length - 1]!;
    step(ids.length);
  }
  await writing;

  const names = [...tags];
  for (let from = 0; from < names.length; from += DEPLOY_BATCH) {
    await engine.indexTags(tagDocuments(store, names.slice(from, from + DEPLOY_BATCH)));
  }
  result.tags = names.length;
  return result;
}
