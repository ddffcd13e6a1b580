// The push subscription's endpoint comes back exactly as the client sent it (masto.js and Mastodon.py compare
// it verbatim; `https://example.com` was answered as `https://example.com/`), through POST, GET and PUT, with
// JSON, form and multipart bodies; it is still checked as an https URL on a public host, and delivery still
// goes through the outgoing-fetch guard: a verbatim endpoint with no path is pushed to, one whose name
// resolves to loopback is refused. Delivery runs on job worker threads.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { passwordToken, signedInUser } from "../helpers/clients.ts";
import { decryptPush, newDevice, startReceiver, type Receiver } from "../helpers/push.ts";
import { call, get, newUser, post, postStatus } from "./statuses-helpers.ts";
import { sendPush } from "../../src/domain/push/send.ts";
import { ensureVapidKeys } from "../../src/domain/push/vapid.ts";
import { getPushSubscription } from "../../src/store/push.ts";
import { sha256 } from "../../src/lib/secrets.ts";

setDefaultTimeout(60_000);

const PATH = "/api/v1/push/subscription";
const device = newDevice();
const keys = { p256dh: device.p256dh, auth: device.auth };

/** Valid https endpoints a URL parser would rewrite (a path added, case, default port, dots, IDN, escapes). */
const ENDPOINTS = [
  "https://example.com",
  "https://example.com?token=abc",
  "https://example.com/",
  "https://push.example/send/abc123?x=1&y=%20z#frag",
  "HTTPS://Push.Example.COM/Send/ABC",
  "https://push.example:443/send",
  "https://push.example:8443",
  "https://push.example/a/./b/../c",
  "https://push.example./send",
  "https://bücher.example/wp/ä",
  "https://push.example/%7Euser/%e2%82%ac",
  "https://[2606:4700:4700::1111]/push",
  "https://push.example/wp/" + "x".repeat(1900),
];

let t: TestApp;
let user: Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  t = await startTestApp();
  user = await signedInUser(t, "pusher");
});
afterAll(() => t.close());

const freshToken = async () => (await passwordToken(t, user.app, user.username, user.password)).access_token;

describe("the endpoint as given", () => {
  test("POST (JSON), GET and PUT answer the endpoint byte for byte", async () => {
    for (const endpoint of ENDPOINTS) {
      const token = await freshToken();
      const created = await post(t, PATH, token, { subscription: { endpoint, keys } });
      expect({ endpoint, status: created.status, answered: created.body.endpoint }).toEqual({ endpoint, status: 200, answered: endpoint });
      expect((await get(t, PATH, token)).body.endpoint).toBe(endpoint);
      const changed = await call(t, "PUT", PATH, token, { data: { alerts: { mention: true } } });
      expect(changed.body.endpoint).toBe(endpoint);
    }
  });

  test("a form body (subscription[endpoint]=https://example.com) and a multipart body: the same", async () => {
    for (const endpoint of ["https://example.com", "https://example.com?a=b&c=d", "HTTPS://Example.com:443"]) {
      const token = await freshToken();
      const form = await t.request(PATH, {
        method: "POST",
        token,
        form: { "subscription[endpoint]": endpoint, "subscription[keys][p256dh]": keys.p256dh, "subscription[keys][auth]": keys.auth },
      });
      expect(form.status).toBe(200);
      expect(((await form.json()) as any).endpoint).toBe(endpoint);

      const multipart = new FormData();
      multipart.set("subscription[endpoint]", endpoint);
      multipart.set("subscription[keys][p256dh]", keys.p256dh);
      multipart.set("subscription[keys][auth]", keys.auth);
      const res = await t.request(PATH, { method: "POST", token, body: multipart });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).endpoint).toBe(endpoint);
      expect((await get(t, PATH, token)).body.endpoint).toBe(endpoint);
    }
  });

  test("only surrounding whitespace, never part of a URL, is dropped; what is not an https URL on a public host is still 422", async () => {
    const token = await freshToken();
    expect((await post(t, PATH, token, { subscription: { endpoint: "  https://example.com\n", keys } })).body.endpoint).toBe("https://example.com");
    const refused = ["http://example.com", "https://127.0.0.1", "https://user@example.com", "javascript:alert(1)", "https://"];
    for (const endpoint of refused) {
      expect({ endpoint, status: (await post(t, PATH, token, { subscription: { endpoint, keys } })).status }).toEqual({ endpoint, status: 422 });
    }
  });
});

describe("delivery to an endpoint kept as given", () => {
  let open: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = startReceiver();
    open = await startTestApp({ WARREN_ALLOW_PRIVATE_ADDRESSES: "true", WARREN_JOB_WORKERS: "2" });
  });
  afterAll(async () => {
    await open.close();
    receiver.stop();
  });

  test("an endpoint without a path, in upper case, is pushed to (path /, VAPID audience its origin)", async () => {
    const [alice, bob] = [await newUser(open, "verbatim"), await newUser(open, "verbatimbob")];
    const endpoint = receiver.base.replace("http://", "HTTP://");
    const res = await post(open, PATH, alice.token, { subscription: { endpoint, keys, standard: true }, data: { alerts: { mention: true } } });
    expect(res.body.endpoint).toBe(endpoint);
    await postStatus(open, bob, `@${alice.username} ping`);
    const [push] = await receiver.waitFor("/");
    expect(JSON.parse(decryptPush(device, push!.headers, push!.body)).notification_type).toBe("mention");
    const jwt = /^vapid t=([\w-]+)\.([\w-]+)\./.exec(push!.headers.get("authorization") ?? "");
    expect(JSON.parse(Buffer.from(jwt![2]!, "base64url").toString()).aud).toBe(receiver.base);
    // Every request Warren makes names it (issue 25 item 10), push services' logs too.
    expect(push!.headers.get("user-agent")).toBe(`Warren/0.1.0 (+${open.deps.config.url}/)`);
  });

  test("the outgoing-fetch guard still applies: a verbatim https endpoint whose name resolves to loopback is refused", async () => {
    const bea = await newUser(open, "guarded");
    const port = new URL(receiver.base).port;
    const endpoint = `HTTPS://Push.Test:${port}`;
    expect((await post(open, PATH, bea.token, { subscription: { endpoint, keys } })).body.endpoint).toBe(endpoint);
    const stored = getPushSubscription(open.deps.store, sha256(bea.token))!;
    const strict = { ...open.deps.config, allowPrivateAddresses: false };
    const outcome = await sendPush(strict, ensureVapidKeys(open.deps.store), stored, "{}", { resolve: async () => ["127.0.0.1"] });
    expect(outcome).toMatchObject({ kind: "refused" });
  });
});
