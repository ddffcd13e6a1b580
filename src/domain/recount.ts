// `warren cache recount statuses|accounts`: every stored counter recomputed from the rows it counts and
// rewritten where it differs. Safe while the server runs: each batch reads the rows and writes the counts
// in one transaction, so a favourite or follow committed meanwhile is either already counted or adds its
// own +1 after the batch.
import type { Store } from "../store/db.ts";
import { getAccount, putAccount } from "../store/accounts.ts";
import { accountIdsAfter, countAccountRows, countStoredAccounts } from "../store/accounts-counters.ts";
import { getStatus, putStatus } from "../store/statuses.ts";
import { countStatusRows, countStoredStatuses, statusIdsAfter } from "../store/statuses-counters.ts";
import { countedQuotes } from "./quotes/attach.ts";

/** Records per write transaction: short enough not to hold the write lock for long. */
const BATCH = 500;

export type RecountTarget = "statuses" | "accounts";

export interface RecountResult {
  examined: number;
  corrected: number;
}

/** Called after each batch with the records examined so far and the total when the recount started. */
export type RecountProgress = (done: number, total: number) => void;

interface Recounter {
  total(store: Store): number;
  idsAfter(store: Store, afterId: string | null, limit: number): string[];
  /** Inside a write: rewrites the record's counters if they differ; true when it did. */
  fix(store: Store, id: string): boolean;
}

function differ<T extends object>(stored: T, counted: T): boolean {
  return (Object.keys(counted) as (keyof T)[]).some((name) => stored[name] !== counted[name]);
}

const RECOUNTERS: Record<RecountTarget, Recounter> = {
  statuses: {
    total: countStoredStatuses,
    idsAfter: statusIdsAfter,
    fix(store, id) {
      const status = getStatus(store, id);
      if (!status) return false;
      const counts = { ...countStatusRows(store, id), ...countedQuotes(store, status) };
      if (!differ(status, counts)) return false;
      putStatus(store, { ...status, ...counts });
      return true;
    },
  },
  accounts: {
    total: countStoredAccounts,
    idsAfter: accountIdsAfter,
    fix(store, id) {
      const account = getAccount(store, id);
      if (!account) return false;
      const counts = countAccountRows(store, id);
      if (!differ(account, counts)) return false;
      putAccount(store, { ...account, ...counts });
      return true;
    },
  },
};

export async function recount(store: Store, target: RecountTarget, progress: RecountProgress = () => {}): Promise<RecountResult> {
  const recounter = RECOUNTERS[target];
  const total = recounter.total(store);
  const result: RecountResult = { examined: 0, corrected: 0 };
  let after: string | null = null;
  for (;;) {
    const ids = recounter.idsAfter(store, after, BATCH);
    if (ids.length === 0) break;
    result.corrected += await store.write(() => ids.filter((id) => recounter.fix(store, id)).length);
    result.examined += ids.length;
    after = ids[ids.length - 1]!;
    progress(result.examined, Math.max(total, result.examined));
  }
  return result;
}
