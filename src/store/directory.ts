// The profile directory's read (GET /api/v1/directory): accounts newest first, by id.
import type { Store } from "./handle.ts";
import type { AccountRecord } from "../model/accounts.ts";

/** The accounts `accept` takes among the `rows` newest (local and remote), newest first. */
export function newestAccounts(store: Store, rows: number, accept: (account: AccountRecord) => boolean): AccountRecord[] {
  const out: AccountRecord[] = [];
  for (const { value } of store.db.accounts.getRange({ reverse: true, limit: rows })) {
    if (accept(value as AccountRecord)) out.push(value as AccountRecord);
  }
  return out;
}
