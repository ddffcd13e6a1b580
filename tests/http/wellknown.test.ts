// NodeInfo, host-meta and WebFinger, through HTTP.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";
import { missingKeys, referenceKeys } from "../helpers/reference-keys.ts";
import { SOFTWARE_VERSION } from "../../src/domain/limits.ts";

// Users cost an argon2 hash and an RSA key each.
setDefaultTimeout(30_000);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "approval", WARREN_TITLE: "Burrow" });
  const alice = await signedInUser(t, "alice");
  await createUser(t, "bob");
  await createUser(t, "pending", { approved: false });
  await createUser(t, "unconfirmed", { confirmed: false });
  const posted = await t.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { status: "first!" } });
  if (posted.status !== 200) throw new Error(`posting failed: ${posted.status}`);
});
afterAll(() => t.close());

describe("NodeInfo", () => {
  test("GET /.well-known/nodeinfo links to the 2.0 document and is cached 3 days", async () => {
    const res = await t.request("/.well-known/nodeinfo");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=259200");
    const body = await res.json();
    expect(body).toEqual({ links: [{ rel: "http://nodeinfo.diaspora.software/ns/schema/2.0", href: `${BASE}/nodeinfo/2.0` }] });
    expect(missingKeys(body, referenceKeys("GET /.well-known/nodeinfo"))).toEqual([]);
  });

  test("GET /nodeinfo/2.0 describes the software and counts members and local posts", async () => {
    const res = await t.request("/nodeinfo/2.0");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe('application/json; profile="http://nodeinfo.diaspora.software/ns/schema/2.0#"');
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=1800");
    expect(res.headers.get("vary")).toBe("Authorization");
    const body = (await res.json()) as any;
    expect(missingKeys(body, referenceKeys("GET /nodeinfo/2.0"))).toEqual([]);
    expect(body).toEqual({
      version: "2.0",
      software: { name: "warren", version: SOFTWARE_VERSION },
      protocols: ["activitypub"],
      services: { outbound: [], inbound: [] },
      // alice and bob; the pending and the unconfirmed user are not members yet
      usage: { users: { total: 2, activeMonth: 2, activeHalfyear: 2 }, localPosts: 1 },
      // sign-ups that wait for approval are open, as Mastodon reports them
      openRegistrations: true,
      metadata: { nodeName: "Burrow", nodeDescription: "" },
    });
  });

  test("is cached publicly even when a token is sent", async () => {
    const res = await t.request("/nodeinfo/2.0", { headers: { authorization: "Bearer whatever" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=1800");
  });
});

describe("host-meta", () => {
  const template = `${BASE}/.well-known/webfinger?resource={uri}`;

  test("XML by default", async () => {
    const res = await t.request("/.well-known/host-meta");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/xrd+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=259200");
    expect(res.headers.get("vary")).toBe("Accept, Authorization");
    const xml = await res.text();
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>');
    expect(xml).toContain('<XRD xmlns="http://docs.oasis-open.org/ns/xri/xrd-1.0">');
    expect(xml).toContain(`<Link rel="lrdd" template="${template}"/>`);
  });

  test("JSON with ?format=json, an Accept asking for JSON, or host-meta.json", async () => {
    const answers = [
      await t.request("/.well-known/host-meta?format=json"),
      await t.request("/.well-known/host-meta", { headers: { accept: "application/json" } }),
      await t.request("/.well-known/host-meta.json"),
    ];
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await res.json()).toEqual({ links: [{ rel: "lrdd", template }] });
    }
  });

  test("an Accept preferring XRD gets XML", async () => {
    const res = await t.request("/.well-known/host-meta", { headers: { accept: "application/xrd+xml, application/json;q=0.5" } });
    expect(res.headers.get("content-type")).toBe("application/xrd+xml; charset=utf-8");
  });
});

describe("WebFinger", () => {
  const finger = (resource?: string) =>
    t.request(`/.well-known/webfinger${resource === undefined ? "" : `?resource=${encodeURIComponent(resource)}`}`);

  const aliceJrd = {
    subject: "acct:alice@localhost:3000",
    aliases: [`${BASE}/@alice`, `${BASE}/users/alice`],
    links: [
      { rel: "http://webfinger.net/rel/profile-page", type: "text/html", href: `${BASE}/@alice` },
      { rel: "self", type: "application/activity+json", href: `${BASE}/users/alice` },
      { rel: "http://ostatus.org/schema/1.0/subscribe", template: `${BASE}/authorize_interaction?uri={uri}` },
    ],
  };

  test("finds a local account by acct: URI", async () => {
    const res = await finger("acct:alice@localhost:3000");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/jrd+json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=259200");
    expect(res.headers.get("vary")).toBe("Authorization");
    expect(await res.json()).toEqual(aliceJrd);
  });

  test("accepts user@domain, the actor URI, the profile URL, any case and a leading @", async () => {
    for (const resource of ["alice@localhost:3000", `${BASE}/users/alice`, `${BASE}/@alice`, "acct:ALICE@LOCALHOST:3000", "acct:@alice@localhost:3000"]) {
      const res = await finger(resource);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { subject: string }).subject).toBe("acct:alice@localhost:3000");
    }
  });

  test("400 when the resource is missing or not an account address", async () => {
    for (const resource of [undefined, "", "   ", "alice", "acct:", "acct:a@b@c", "http://[broken"]) {
      const res = await finger(resource);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string };
      expect(body.error).toBe(resource?.trim() ? "Invalid resource" : "param is missing or the value is empty: resource");
      expect(res.headers.get("cache-control")).toBe("public, max-age=180");
    }
  });

  test("404 for unknown, hidden, remote and non-account resources", async () => {
    for (const resource of [
      "acct:nobody@localhost:3000",
      "acct:alice@elsewhere.example",
      "https://elsewhere.example/users/alice",
      `${BASE}/users/nobody`,
      `${BASE}/notes/1`,
      "acct:pending@localhost:3000",
      "acct:unconfirmed@localhost:3000",
    ]) {
      const res = await finger(resource);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "Record not found" });
      expect(res.headers.get("cache-control")).toBe("public, max-age=180");
    }
  });
});
