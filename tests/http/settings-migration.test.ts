// /settings/aliases and /settings/migration on one instance (docs/web.md), driven like a browser, and what
// clients see after a move between two local accounts: `moved`, the followers carried over (a locked target
// followed without asking: it listed the alias), `move` notifications in v1 and v2, the old account's API
// closed (403, as Mastodon's `functional?`), the redirect cancelled; more followers than one batch all carried
// over. Hostile forms get a page, never a 500.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { signedInUser } from "../helpers/clients.ts";
import { WebBrowser } from "../helpers/web.ts";

let t: TestApp;
type User = Awaited<ReturnType<typeof signedInUser>>;
let old: User, fresh: User, reader: User;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  [old, fresh, reader] = await Promise.all([signedInUser(t, "oldacct"), signedInUser(t, "freshacct"), signedInUser(t, "reader")]);
});
afterAll(() => t.close());

const api = async (path: string, token: string, init: RequestInit & { json?: unknown } = {}) => {
  const res = await t.request(path, { ...init, token });
  return { status: res.status, body: (await res.json()) as any };
};

test("the pages need a session and their forms the session's CSRF token", async () => {
  for (const path of ["/settings/aliases", "/settings/migration"]) {
    const res = await t.request(path);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/auth/sign_in");
  }
  const browser = await new WebBrowser(t).signIn("oldacct", old.password);
  const forged = await browser.post("/settings/migration", "not-the-token", { "account_migration[acct]": "freshacct", "account_migration[current_password]": old.password });
  expect(forged.res.status).toBe(403);
  expect((await api(`/api/v1/accounts/${old.id}`, reader.token)).body.moved).toBeUndefined();
});

test("hostile and wrong alias forms: a page with the problem, nothing stored", async () => {
  const browser = await new WebBrowser(t).signIn("freshacct", fresh.password);
  const cases: Record<string, string>[] = [
    { account_alias: "flat" },
    { "account_alias[acct][]": "oldacct" },
    { "account_alias[acct]": "" },
    { "account_alias[acct]": "freshacct" },
    { "account_alias[acct]": "nobody-here" },
    { "account_alias[acct]": "a@b@c" },
  ];
  for (const fields of cases) {
    const res = await browser.submit("/settings/aliases", "/settings/aliases", fields);
    expect(res.res.status).toBe(422);
    expect(res.html).toContain('aria-invalid="true"');
  }
  const page = await browser.open("/settings/aliases");
  expect(page.html).toContain("No aliases yet.");
});

test("a move between two local accounts: checks, moved, followers carried over, notifications, API closed, cancel", async () => {
  await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: fresh.token, json: { locked: true } });
  expect((await api(`/api/v1/accounts/${old.id}/follow`, reader.token, { method: "POST" })).body.following).toBe(true);
  const oldWeb = await new WebBrowser(t).signIn("oldacct", old.password);
  const move = (password: string) =>
    oldWeb.submit("/settings/migration", "/settings/migration", { "account_migration[acct]": `@freshacct@${t.deps.config.domain}`, "account_migration[current_password]": password });

  const noAlias = await move(old.password);
  expect(noAlias.res.status).toBe(422);
  const freshWeb = await new WebBrowser(t).signIn("freshacct", fresh.password);
  const added = await freshWeb.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": "oldacct" });
  expect(added.res.status).toBe(200);
  expect(added.html).toContain(`oldacct@${t.deps.config.domain}`);
  const duplicate = await freshWeb.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": "oldacct" });
  expect(duplicate.res.status).toBe(422);
  expect((await move("wrong password")).res.status).toBe(422);
  expect((await move(old.password)).res.status).toBe(200);
  await t.deps.jobs.drain();

  const seen = (await api(`/api/v1/accounts/${old.id}`, reader.token)).body;
  expect(seen.moved).toMatchObject({ id: fresh.id, acct: "freshacct" });
  expect((await api("/api/v1/accounts/lookup?acct=oldacct", reader.token)).body.moved.id).toBe(fresh.id);
  const [relationship] = (await api(`/api/v1/accounts/relationships?id[]=${fresh.id}&id[]=${old.id}`, reader.token)).body;
  expect(relationship).toMatchObject({ id: fresh.id, following: true, requested: false });
  expect((await api(`/api/v1/accounts/relationships?id[]=${old.id}`, reader.token)).body[0].following).toBe(false);
  const [note] = (await api("/api/v1/notifications", reader.token)).body;
  expect(note).toMatchObject({ type: "move", account: { id: old.id, moved: { id: fresh.id } }, target: { id: fresh.id } });
  const grouped = (await api("/api/v2/notifications", reader.token)).body;
  expect(grouped.notification_groups[0]).toMatchObject({ type: "move", sample_account_ids: [old.id] });

  for (const [method, path] of [["GET", "/api/v1/timelines/home"], ["POST", "/api/v1/statuses"], ["GET", "/api/v1/accounts/verify_credentials"]] as const) {
    const res = await api(path, old.token, { method, ...(method === "POST" ? { json: { status: "hi" } } : {}) });
    expect(res).toEqual({ status: 403, body: { error: "Your login is currently disabled" } });
  }
  expect((await api(`/api/v1/accounts/${old.id}/follow`, fresh.token, { method: "POST" })).status).toBe(403);
  expect((await oldWeb.open("/settings/migration")).html).toContain("redirects to");

  expect((await oldWeb.submit("/settings/migration", "/settings/migration/cancel")).res.status).toBe(200);
  expect((await api("/api/v1/accounts/verify_credentials", old.token)).status).toBe(200);
  expect((await api(`/api/v1/accounts/${old.id}`, reader.token)).body.moved).toBeUndefined();
});

test("a move with more followers than one batch carries them all over, batch after batch", async () => {
  const { createLocalAccount, generateAccountKeys } = await import("../../src/domain/accounts/create.ts");
  const { hashPassword } = await import("../../src/domain/auth/password.ts");
  const { follow } = await import("../../src/domain/relationships/follow.ts");
  const { MOVE_BATCH } = await import("../../src/domain/accounts/move-followers.ts");
  const [bigOld, bigNew] = await Promise.all([signedInUser(t, "bigold"), signedInUser(t, "bignew")]);
  // Seeding only (shared hash and key pair, as the benchmarks seed): the move itself goes through the pages.
  const pair = await generateAccountKeys();
  const seeded = { passwordHash: await hashPassword("seeded-password"), keys: { v: 1 as const, publicKeyPem: pair.publicKey, privateKeyPem: pair.privateKey } };
  const target = (await t.deps.store.db.accounts.get(bigOld.id.padStart(18, "0")))!;
  const count = MOVE_BATCH + 5;
  for (let i = 0; i < count; i++) {
    const { account } = await createLocalAccount(t.deps, { username: `crowd${i}`, email: `crowd${i}@example.com`, password: "seeded-password", approved: true, confirmed: true }, seeded);
    await follow(t.deps, account, target as any, {});
  }
  const newWeb = await new WebBrowser(t).signIn("bignew", bigNew.password);
  expect((await newWeb.submit("/settings/aliases", "/settings/aliases", { "account_alias[acct]": "bigold" })).res.status).toBe(200);
  const oldWeb = await new WebBrowser(t).signIn("bigold", bigOld.password);
  const moved = await oldWeb.submit("/settings/migration", "/settings/migration", { "account_migration[acct]": "bignew", "account_migration[current_password]": bigOld.password });
  expect(moved.res.status).toBe(200);
  await t.deps.jobs.drain();
  expect((await api(`/api/v1/accounts/${bigNew.id}`, reader.token)).body.followers_count).toBe(count);
  expect((await api(`/api/v1/accounts/${bigOld.id}`, reader.token)).body.followers_count).toBe(0);
});
