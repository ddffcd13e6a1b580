// The accepted quotes of each status (keyspace `quotes`: ["s", quotedId, quotingId] → the quoting account) and
// the QuoteAuthorizations other servers gave our quotes (["a", authorization uri] → the quoting status). The quote itself (what is quoted, its state) lives on the quoting status's record; this
// index lists a status's quotes (GET /api/v1/statuses/:id/quotes, quoted_update notifications). Typed reads and
// writes only; the rules live in domain/quotes.
import { END, type Store } from "./handle.ts";
import { scanPage } from "./paging.ts";
import type { PageQuery } from "../model/paging.ts";

export interface QuoteRow {
  /** The quoting status (the cursor of the list). */
  statusId: string;
  accountId: string;
}

/** Inside a write. */
export function putQuoteRow(store: Store, quotedId: string, row: QuoteRow): void {
  store.db.quotes.put(["s", quotedId, row.statusId], row.accountId);
}

/** Inside a write: true when the row was there. */
export function removeQuoteRow(store: Store, quotedId: string, quotingId: string): boolean {
  if (store.db.quotes.get(["s", quotedId, quotingId]) === undefined) return false;
  store.db.quotes.remove(["s", quotedId, quotingId]);
  return true;
}

/** A page of a status's accepted quotes, newest first. */
export function pageQuoteRows(store: Store, quotedId: string, query: PageQuery, accept: (row: QuoteRow) => boolean): QuoteRow[] {
  return scanPage<string>(store.db.quotes, ["s", quotedId], query, (row) => accept({ statusId: row.key[2], accountId: row.value })).map((row) => ({
    statusId: row.key[2],
    accountId: row.value,
  }));
}

/** How many accepted quotes a status has (the recount of quotesCount). */
export function countQuoteRows(store: Store, quotedId: string): number {
  return store.db.quotes.getCount({ start: ["s", quotedId], end: ["s", quotedId, END] });
}

/** Every accepted quote of a status, oldest first, up to `limit`. */
export function quoteRowsOf(store: Store, quotedId: string, limit: number): QuoteRow[] {
  const out: QuoteRow[] = [];
  for (const { key, value } of store.db.quotes.getRange({ start: ["s", quotedId], end: ["s", quotedId, END] })) {
    out.push({ statusId: (key as string[])[2]!, accountId: value as string });
    if (out.length >= limit) break;
  }
  return out;
}

/** Inside a write: forgets every row of a removed status's quotes. */
export function removeQuoteRowsOf(store: Store, quotedId: string): void {
  for (const row of quoteRowsOf(store, quotedId, Infinity)) store.db.quotes.remove(["s", quotedId, row.statusId]);
}

/** Inside a write: the quoting status an authorization (FEP-044f) was given for, to find it on its Delete. */
export function putQuoteAuthorization(store: Store, uri: string, quotingId: string): void {
  store.db.quotes.put(["a", uri], quotingId);
}

export function quotingIdByAuthorization(store: Store, uri: string): string | undefined {
  return store.db.quotes.get(["a", uri]) as string | undefined;
}
