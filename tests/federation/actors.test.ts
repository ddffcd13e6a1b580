// Actors through HTTP: what another server sees when it asks for a local account with ActivityPub's Accept.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getAccountKeys } from "../../src/store/account-keys-packing.ts";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { api, staffUser } from "../http/admin-helpers.ts";
import { loadConfig } from "../../src/config.ts";
import { buildApp, createDeps } from "../../src/app.ts";

const AP = "application/activity+json";
const LD = 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const getActor = (path: string, accept = AP) => t.request(path, { headers: { accept } });

describe("local actors", () => {
  test("a Person with its keys, inbox, outbox, collections and shared inbox", async () => {
    const alice = await signedInUser(t, "alice");
    const update = await t.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      json: { display_name: "Alice A.", note: "Hello *there*", locked: true, fields_attributes: { "0": { name: "Site", value: "example.org" } } },
    });
    expect(update.status).toBe(200);
    const res = await getActor("/users/alice");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/activity+json");
    const actor = (await res.json()) as Record<string, any>;
    expect(actor["@context"]).toContain("https://www.w3.org/ns/activitystreams");
    expect(actor.type).toBe("Person");
    expect(actor.id).toBe(`${BASE}/users/alice`);
    expect(actor.preferredUsername).toBe("alice");
    expect(actor.name).toBe("Alice A.");
    expect(actor.summary).toContain("Hello");
    expect(actor.manuallyApprovesFollowers).toBe(true);
    expect(actor.url).toBe(`${BASE}/@alice`);
    expect(actor.inbox).toBe(`${BASE}/users/alice/inbox`);
    expect(actor.outbox).toBe(`${BASE}/users/alice/outbox`);
    expect(actor.followers).toBe(`${BASE}/users/alice/followers`);
    expect(actor.following).toBe(`${BASE}/users/alice/following`);
    expect(actor.endpoints.sharedInbox).toBe(`${BASE}/inbox`);
    expect(actor.published).toMatch(/T00:00:00Z$/);
    expect(actor.publicKey.owner).toBe(actor.id);
    expect(actor.publicKey.id).toStartWith(actor.id);
    expect(actor.publicKey.publicKeyPem).toContain("BEGIN PUBLIC KEY");
    const methods = [actor.assertionMethod].flat();
    expect(methods.length).toBe(2);
    expect(methods.every((m: any) => m.type === "Multikey" && m.controller === actor.id)).toBe(true);
    // Ed25519 multikeys start with z6Mk in base58btc.
    expect(methods.some((m: any) => String(m.publicKeyMultibase).startsWith("z6Mk"))).toBe(true);
    const attachment = [actor.attachment].flat();
    expect(attachment[0]).toMatchObject({ type: "PropertyValue", name: "Site" });
    // The RSA key is the one made with the account.
    const stored = getAccountKeys(t.deps.store, alice.id.padStart(18, "0"))!;
    expect(actor.publicKey.publicKeyPem.trim()).toBe(stored.publicKeyPem.trim());
  });

  test("ld+json asks for the same document", async () => {
    await createUser(t, "lduser");
    const res = await getActor("/users/lduser", LD);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).type).toBe("Person");
  });

  test("a bot is a Service", async () => {
    const bot = await signedInUser(t, "botty");
    const update = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: bot.token, json: { bot: true } });
    expect(update.status).toBe(200);
    const actor = (await (await getActor("/users/botty")).json()) as any;
    expect(actor.type).toBe("Service");
  });

  test("icon and image when set", async () => {
    const pic = await createUser(t, "pic");
    // The record's URLs as an upload leaves them (uploads themselves are tested in tests/http/accounts-media).
    const id = pic.id.padStart(18, "0");
    const account = t.deps.store.db.accounts.get(id);
    await t.deps.store.write(() => t.deps.store.db.accounts.put(id, {
      ...account, avatarUrl: "/system/accounts/avatars/a.png", headerUrl: "/system/accounts/headers/h.jpg", avatarDescription: "me",
    }));
    const actor = (await (await getActor("/users/pic")).json()) as any;
    expect(actor.icon.type).toBe("Image");
    expect(actor.icon.url).toStartWith(`${BASE}/system/`);
    expect(actor.icon.mediaType).toBe("image/png");
    expect(actor.icon.name).toBe("me");
    expect(actor.image.type).toBe("Image");
    expect(actor.image.mediaType).toBe("image/jpeg");
  });

  test("followers and following collections carry counts", async () => {
    const res = await getActor("/users/alice/followers");
    expect(res.status).toBe(200);
    const collection = (await res.json()) as any;
    expect(collection.type).toMatch(/Collection/);
    expect(collection.totalItems).toBe(0);
    const following = (await (await getActor("/users/alice/following")).json()) as any;
    expect(following.totalItems).toBe(0);
  });

  test("unknown and unconfirmed accounts are 404", async () => {
    expect((await getActor("/users/nobody")).status).toBe(404);
    await createUser(t, "pending", { confirmed: false });
    expect((await getActor("/users/pending")).status).toBe(404);
  });

  test("a suspended account shows as suspended, without its profile", async () => {
    const sus = await signedInUser(t, "sus");
    await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: sus.token, json: { display_name: "Sus", note: "bio" } });
    await suspendAccount(t, sus.id);
    const res = await getActor("/users/sus");
    expect(res.status).toBe(200);
    const actor = (await res.json()) as any;
    expect(actor.suspended).toBe(true);
    expect(actor.name).toBe("sus");
    expect(actor.summary ?? "").toBe("");
    expect(actor.publicKey.publicKeyPem).toContain("BEGIN PUBLIC KEY");
  });

  test("an account whose data was deleted is gone (410)", async () => {
    const admin = await staffUser(t, "boss", "Admin");
    const gone = await createUser(t, "goner");
    await suspendAccount(t, gone.id);
    expect((await api(t, "DELETE", `/api/v1/admin/accounts/${gone.id}`, admin.token)).status).toBe(200);
    await t.deps.jobs.drain();
    expect((await getActor("/users/goner")).status).toBe(410);
  });

  test("the instance actor is an Application", async () => {
    const res = await getActor("/users/instance.actor");
    expect(res.status).toBe(200);
    const actor = (await res.json()) as any;
    expect(actor.type).toBe("Application");
    expect(actor.preferredUsername).toBe(new URL(BASE).host);
    expect(actor.publicKey.publicKeyPem).toContain("BEGIN PUBLIC KEY");
  });

  test("browsers keep getting what they got before", async () => {
    const html = await getActor("/users/alice", "text/html");
    const none = await t.request("/users/alice");
    expect(html.headers.get("content-type") ?? "").not.toContain("activity+json");
    expect(none.headers.get("content-type") ?? "").not.toContain("activity+json");
  });

  test("WebFinger and NodeInfo are still ours", async () => {
    const res = await t.request("/.well-known/webfinger?resource=acct:alice@localhost:3000");
    expect(res.status).toBe(200);
    const jrd = (await res.json()) as any;
    expect(jrd.links.find((l: any) => l.rel === "self").href).toBe(`${BASE}/users/alice`);
  });
});

test("key pairs are the same after a restart", async () => {
  const before = (await (await getActor("/users/alice")).json()) as any;
  const instanceBefore = (await (await getActor("/users/instance.actor")).json()) as any;
  await t.deps.jobs.stop();
  await t.deps.store.close();
  const deps = createDeps(loadConfig({ WARREN_DATA_DIR: t.dir, WARREN_URL: BASE, WARREN_JOB_WORKERS: "0", WARREN_RATE_LIMITS: "off" }));
  const app = buildApp(deps);
  const get = (path: string) => app.handle(new Request(BASE + path, { headers: { accept: AP } }));
  try {
    const after = (await (await get("/users/alice")).json()) as any;
    expect(after.publicKey.publicKeyPem).toBe(before.publicKey.publicKeyPem);
    expect(after.assertionMethod).toEqual(before.assertionMethod);
    const instanceAfter = (await (await get("/users/instance.actor")).json()) as any;
    expect(instanceAfter.publicKey.publicKeyPem).toBe(instanceBefore.publicKey.publicKeyPem);
    expect(instanceAfter.assertionMethod).toEqual(instanceBefore.assertionMethod);
  } finally {
    // Hand the reopened deps to afterAll's close.
    t.deps.store = deps.store;
    t.deps.jobs = deps.jobs;
  }
});
