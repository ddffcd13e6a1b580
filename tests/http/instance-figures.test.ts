// The instance statistics are kept figures (src/store/member-figures.ts), updated by the writes that change
// users, accounts and sign-ins, in the request or in a job on a worker thread. After a mix of writes through
// the API (sign-ups, approval, rejection, posts, a reblog, deletions, sign-ins, suspension, disabling) they
// must give what the full scan of every user, account and token gave before (the reference below), at
// every window boundary to the millisecond; and migration 12, run again, must find the same figures.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, passwordToken, signedInUser, type ClientApp } from "../helpers/clients.ts";
import { staffUser, type Staffer } from "./admin-helpers.ts";
import { contactAccount, instanceUsage, type InstanceUsage } from "../../src/domain/instance/info.ts";
import { runMigrationStep } from "../../src/store/migrations.ts";
import { changeUser } from "../../src/domain/accounts/manage.ts";
import type { Store } from "../../src/store/db.ts";
import type { AccountRecord, UserRecord } from "../../src/model/accounts.ts";
import type { TokenRecord } from "../../src/model/auth.ts";

setDefaultTimeout(60_000);

const DAY_MS = 86_400_000;
const MONTH_MS = 30 * DAY_MS;
const HALF_YEAR_MS = 180 * DAY_MS;

let t: TestApp;
let client: ClientApp;
let owner: Staffer;
let alice: Awaited<ReturnType<typeof signedInUser>>;
let bob: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  // Worker threads on: jobs (status removal, the suspension's clean-up) write accounts from another thread.
  t = await startTestApp({ WARREN_REGISTRATIONS: "approval", WARREN_JOB_WORKERS: "1" });
  client = await createClientApp(t);
  owner = await staffUser(t, "owner", "Owner");
  alice = await signedInUser(t, "alice");
  bob = await signedInUser(t, "bob");
});
afterAll(() => t.close());

/** The statistics as they were computed before the figures: every user, its account and every token. */
function scanned(store: Store, now: number): { usage: InstanceUsage; lastActive: number[]; contactId: string | null } {
  const signIns = new Map<string, number>();
  for (const { value } of store.db.tokens.getRange({})) {
    const token = value as TokenRecord;
    if (token.accountId && token.createdAt > (signIns.get(token.accountId) ?? 0)) signIns.set(token.accountId, token.createdAt);
  }
  const usage: InstanceUsage = { total: 0, activeMonth: 0, activeHalfyear: 0, localPosts: 0 };
  const lastActive: number[] = [];
  let contactId: string | null = null;
  for (const { value } of store.db.users.getRange({})) {
    const user = value as UserRecord;
    const account: AccountRecord | undefined = store.db.accounts.get(user.accountId);
    if (!account) continue;
    usage.localPosts += account.statusesCount;
    if (user.confirmedAt === null || !user.approved || user.disabled || account.suspended) continue;
    if (user.role === "Owner") contactId ??= account.id;
    usage.total++;
    const active = Math.max(user.createdAt, signIns.get(account.id) ?? 0, account.lastStatusAt ?? 0);
    lastActive.push(active);
    if (active >= now - MONTH_MS) usage.activeMonth++;
    if (active >= now - HALF_YEAR_MS) usage.activeHalfyear++;
  }
  return { usage, lastActive, contactId };
}

/** The kept figures against the scan: now, and on each side of every member's window boundaries. */
async function expectFiguresAsScanned() {
  await t.deps.jobs.drain();
  const now = Date.now();
  const { lastActive, contactId } = scanned(t.deps.store, now);
  const moments = [now, now + 7 * DAY_MS, now + 100 * DAY_MS, now + 400 * DAY_MS];
  for (const active of lastActive) moments.push(active + MONTH_MS, active + MONTH_MS + 1, active + HALF_YEAR_MS, active + HALF_YEAR_MS + 1);
  for (const moment of moments) expect({ moment, ...instanceUsage(t.deps, moment) }).toEqual({ moment, ...scanned(t.deps.store, moment).usage });
  expect(contactAccount(t.deps)?.id ?? null).toBe(contactId);
}

const post = async (token: string, text: string) => {
  const res = await t.request("/api/v1/statuses", { method: "POST", token, json: { status: text } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
};

async function staff(path: string, json?: unknown) {
  const res = await t.request(path, { method: "POST", token: owner.token, json: json ?? {} });
  expect(res.status).toBe(200);
}

describe("kept instance figures", () => {
  test("sign-ups waiting, approved and rejected", async () => {
    const token = (await appToken(t, client, "read write")).access_token;
    for (const name of ["carol", "dave", "erin"]) {
      const res = await t.request("/api/v1/accounts", {
        method: "POST",
        token,
        json: { username: name, email: `${name}@example.com`, password: "correct horse", agreement: true, reason: "hi" },
      });
      expect(res.status).toBe(200);
    }
    await expectFiguresAsScanned();
    const pending = (await (await t.request("/api/v1/admin/accounts?pending=true", { token: owner.token })).json()) as { id: string; username: string }[];
    const idOf = (name: string) => pending.find((account) => account.username === name)!.id;
    const [carol, dave] = [idOf("carol"), idOf("dave")];
    await staff(`/api/v1/admin/accounts/${carol}/approve`);
    await staff(`/api/v1/admin/accounts/${dave}/reject`);
    await expectFiguresAsScanned();
  });

  test("posts, a reblog, deletions and new sign-ins", async () => {
    const first = await post(alice.token, "one");
    await post(alice.token, "two");
    const bobs = await post(bob.token, "bob's");
    expect((await t.request(`/api/v1/statuses/${bobs}/reblog`, { method: "POST", token: alice.token })).status).toBe(200);
    await expectFiguresAsScanned();
    expect((await t.request(`/api/v1/statuses/${first}`, { method: "DELETE", token: alice.token })).status).toBe(200);
    await passwordToken(t, alice.app, "alice", alice.password);
    await passwordToken(t, bob.app, "bob", bob.password);
    await expectFiguresAsScanned();
  });

  test("suspension, disabling and their reversal", async () => {
    await staff(`/api/v1/admin/accounts/${bob.id}/action`, { type: "suspend" });
    await staff(`/api/v1/admin/accounts/${alice.id}/action`, { type: "disable" });
    await expectFiguresAsScanned();
    await staff(`/api/v1/admin/accounts/${alice.id}/enable`);
    await staff(`/api/v1/admin/accounts/${bob.id}/unsuspend`);
    await post(bob.token, "back");
    await expectFiguresAsScanned();
  });

  test("the contact: a second Owner, the first one no longer Owner, then disabled", async () => {
    const ownerId = owner.id.padStart(18, "0");
    await changeUser(t.deps, alice.id.padStart(18, "0"), { role: "Owner" });
    await expectFiguresAsScanned();
    expect(contactAccount(t.deps)?.id).toBe(ownerId);
    await changeUser(t.deps, ownerId, { role: "User" });
    await expectFiguresAsScanned();
    expect(contactAccount(t.deps)?.username).toBe("alice");
    await changeUser(t.deps, alice.id.padStart(18, "0"), { disabled: true });
    await expectFiguresAsScanned();
    expect(contactAccount(t.deps)).toBeNull();
  });

  test("the migration that computes the figures finds the kept ones", async () => {
    await t.deps.jobs.drain();
    const entries = () => [...t.deps.store.db.memberFigures.getRange({})].map(({ key, value }) => [key, value]);
    const kept = entries();
    expect(kept.length).toBeGreaterThan(10);
    await t.deps.store.write(() => runMigrationStep(t.deps.store, 12));
    expect(entries()).toEqual(kept);
  });

  test("the answers show them", async () => {
    const { usage } = scanned(t.deps.store, Date.now());
    const nodeinfo = (await (await t.request("/nodeinfo/2.0")).json()) as { usage: { users: { total: number }; localPosts: number } };
    expect(nodeinfo.usage.users.total).toBe(usage.total);
    expect(nodeinfo.usage.localPosts).toBe(usage.localPosts);
    const v2 = (await (await t.request("/api/v2/instance")).json()) as { usage: { users: { active_month: number } } };
    expect(v2.usage.users.active_month).toBe(usage.activeMonth);
  });
});
