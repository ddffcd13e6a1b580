// A quote of a remote status accepted by a job on a worker thread is counted at once on the quoted status: the
// GET right after the settling write reads quotes_count 1 (tests/federation/quotes.test.ts once read 0 there
// under load). Posting the quote read the quoted status inside its write, after putting the quoting status on
// the same LMDB page; that page then carried the write's work id, which a later commit is given, and lmdb-js
// kept the quoted status under it: when the worker's settling write was that commit, the main thread answered
// the record it had kept (quotes_count 0) until some other write changed the page
// (tests/store/cache-reads-in-writes.test.ts has the store-level case). Here the worker settles in exactly that
// commit, as a loaded run sometimes did by chance.
import { afterAll, beforeAll, expect, test } from "bun:test";
import * as lmdb from "lmdb";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, post, type User } from "./statuses-helpers.ts";
import { remoteAccount, remoteStatus } from "./timelines-helpers.ts";
import { normaliseId, publicId } from "../../src/lib/ids.ts";
import { insideWrite } from "../../src/store/versions.ts";
import type { SettleAt } from "./fixtures/settle-quote-at-commit.ts";

const pageTxnId = () => (lmdb as unknown as { getLastTxnId(): number }).getLastTxnId();

let t: TestApp;
let carol: User;
const worker = new Worker(new URL("./fixtures/settle-quote-at-commit.ts", import.meta.url).pathname);

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  carol = await newUser(t, "qwcarol");
}, 60_000);
afterAll(async () => {
  worker.terminate();
  await t.close();
});

function settleInWorker(order: Omit<SettleAt, "config">): Promise<{ settled: boolean; committed: number }> {
  return new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage({ config: t.deps.config, ...order });
  });
}

const show = async (id: string) => (await get(t, `/api/v1/statuses/${id}`, carol.token)).body;

test("a quote settled by a worker thread in the commit whose id the quoted status's page carried in the posting write: counted at the next GET", async () => {
  const author = await remoteAccount(t, "qwquoted");
  const quoted = await remoteStatus(t, author, { content: "<p>quote me from afar</p>", quotePolicy: "public" });
  // Shown once before, as a client would.
  expect((await show(publicId(quoted.id))).quotes_count).toBe(0);
  // Nothing else commits from here on, so the worker can pick the commit its write lands in.
  await t.deps.jobs.drain();
  t.deps.jobs.pause();

  // The id of the page the posting write read the quoted status from.
  let page = 0;
  const statuses = t.deps.store.db.statuses;
  const read = statuses.get;
  statuses.get = ((key: unknown, ...rest: unknown[]) => {
    const value = (read as (...args: unknown[]) => unknown).call(statuses, key, ...rest);
    if (key === quoted.id && insideWrite(t.deps.store)) page = pageTxnId();
    return value;
  }) as typeof statuses.get;
  const res = await post(t, "/api/v1/statuses", carol.token, { status: "quoting from here", quoted_status_id: publicId(quoted.id) });
  statuses.get = read;
  expect(res.body.quote).toEqual({ state: "pending", quoted_status: null });
  const committed = t.deps.store.lastCommitId();
  // The quoting status was put on the quoted one's page first, so the page carried a work id ahead of the commit.
  expect(page).toBeGreaterThan(committed);

  const settling = await settleInWorker({ at: page, quotingId: normaliseId(res.body.id)!, authorizationUri: `${author.uri}/quote_authorizations/1` });
  expect(settling).toEqual({ settled: true, committed: page });
  // A fresh snapshot, so that only a record kept from before could answer the old count.
  t.deps.store.freshSnapshot();
  expect((await show(res.body.id)).quote.state).toBe("accepted");
  expect((await show(publicId(quoted.id))).quotes_count).toBe(1);
  t.deps.jobs.resume();
});
