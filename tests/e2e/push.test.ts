// Web Push end to end: a subscription made through the API, a notification made through the API, the
// `push.deliver` job on a worker thread posting to a real push service on loopback (reachable only because
// this app runs with WARREN_ALLOW_PRIVATE_ADDRESSES=true), and the test decrypting what arrived with the
// device's private key (tests/helpers/push.ts implements both content codings from the specifications).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createPublicKey, verify } from "node:crypto";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { passwordToken } from "../helpers/clients.ts";
import { decryptPush, newDevice, startReceiver, type Device, type Received, type Receiver } from "../helpers/push.ts";
import { favourite, follow, get, newUser, post, postStatus, type User } from "../http/notifications-helpers.ts";
import { sha256 } from "../../src/lib/secrets.ts";
import { getPushSubscription } from "../../src/store/push.ts";
import { sendPush } from "../../src/domain/push/send.ts";
import { ensureVapidKeys } from "../../src/domain/push/vapid.ts";
import type { PushSubscriptionRecord } from "../../src/model/notifications.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let receiver: Receiver;
let serverKey: string;

const ALL_ALERTS = { mention: true, status: true, reblog: true, follow: true, follow_request: true, favourite: true, poll: true, update: true };

async function subscribe(user: { token: string }, path: string, device: Device, options: { standard?: boolean; alerts?: Record<string, boolean>; policy?: string } = {}) {
  const res = await post(t, "/api/v1/push/subscription", user.token, {
    subscription: { endpoint: receiver.base + path, keys: { p256dh: device.p256dh, auth: device.auth }, ...(options.standard === undefined ? {} : { standard: options.standard }) },
    data: { alerts: options.alerts ?? ALL_ALERTS, ...(options.policy ? { policy: options.policy } : {}) },
  });
  expect(res.status).toBe(200);
  return res.body;
}

/** Every job done (retries included), then what `path` received. */
async function settled(path: string): Promise<Received[]> {
  await t.deps.jobs.drain();
  return receiver.to(path);
}

function open(device: Device, push: Received) {
  const text = decryptPush(device, push.headers, push.body);
  return { text, message: JSON.parse(text) };
}

/** The VAPID JWT (RFC 8292): ES256 over header.claims by the instance key, audience the push service's origin. */
function checkVapid(jwt: string) {
  const [header, claims, signature] = jwt.split(".");
  const point = Buffer.from(serverKey, "base64url");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
    format: "jwk",
  });
  expect(verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"))).toBe(true);
  const payload = JSON.parse(Buffer.from(claims!, "base64url").toString());
  expect(payload.aud).toBe(receiver.base);
  expect(payload.exp * 1000).toBeGreaterThan(Date.now());
  expect(payload.sub).toMatch(/^(mailto:|https:)/);
}

async function latestNotification(user: User) {
  const res = await get(t, "/api/v1/notifications?limit=1", user.token);
  return res.body[0];
}

beforeAll(async () => {
  receiver = startReceiver();
  t = await startTestApp({ WARREN_ALLOW_PRIVATE_ADDRESSES: "true", WARREN_JOB_WORKERS: "2" });
  serverKey = (await get(t, "/api/v2/instance")).body.configuration.vapid.public_key;
  expect(serverKey).toMatch(/^B[\w-]{86}$/);
});
afterAll(async () => {
  await t.close();
  receiver.stop();
});

describe("delivery", () => {
  test("standard=true: a mention arrives as RFC 8291 aes128gcm with a VAPID signature, and decrypts to the notification", async () => {
    const [alice, bob] = [await newUser(t, "std"), await newUser(t, "stdbob")];
    const device = newDevice();
    const subscription = await subscribe(alice, "/standard", device, { standard: true });
    expect(subscription.standard).toBe(true);
    expect(subscription.server_key).toBe(serverKey);
    await postStatus(t, bob, `Hello @${alice.username}, this is a push`);
    const [push] = await receiver.waitFor("/standard");
    expect(push!.headers.get("content-encoding")).toBe("aes128gcm");
    expect(push!.headers.get("content-type")).toBe("application/octet-stream");
    expect(push!.headers.get("ttl")).toBe("172800");
    expect(push!.headers.get("urgency")).toBe("normal");
    const authorization = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(push!.headers.get("authorization") ?? "");
    expect(authorization).not.toBeNull();
    expect(authorization![2]).toBe(serverKey);
    checkVapid(authorization![1]!);

    const notification = await latestNotification(alice);
    expect(notification.type).toBe("mention");
    const { text, message } = open(device, push!);
    // notification_id is a JSON number, as on Mastodon, written with every digit.
    expect(text).toContain(`"notification_id":${notification.id},`);
    expect(message).toEqual({
      access_token: alice.token,
      preferred_locale: "en",
      notification_id: expect.any(Number),
      notification_type: "mention",
      icon: expect.stringMatching(/^http:\/\/localhost:3000\/.*missing\.png$/),
      title: `${bob.username} mentioned you`,
      body: `Hello @${alice.username}, this is a push`,
    });
  });

  test("standard absent: the legacy aesgcm coding (Encryption and Crypto-Key headers, WebPush authorization)", async () => {
    const [alice, bob] = [await newUser(t, "leg"), await newUser(t, "legbob")];
    const device = newDevice();
    expect((await subscribe(alice, "/legacy", device)).standard).toBe(false);
    const status = await postStatus(t, alice, "something to like");
    await favourite(t, bob, status.id);
    const [push] = await receiver.waitFor("/legacy");
    expect(push!.headers.get("content-encoding")).toBe("aesgcm");
    expect(push!.headers.get("encryption")).toMatch(/^salt=[\w-]+$/);
    expect(push!.headers.get("crypto-key")).toContain(`p256ecdsa=${serverKey}`);
    const authorization = /^WebPush ([\w-]+\.[\w-]+\.[\w-]+)$/.exec(push!.headers.get("authorization") ?? "");
    expect(authorization).not.toBeNull();
    checkVapid(authorization![1]!);
    const notification = await latestNotification(alice);
    const { text, message } = open(device, push!);
    expect(text).toContain(`"notification_id":${notification.id},`);
    expect(message).toMatchObject({ access_token: alice.token, notification_type: "favourite", title: `${bob.username} favourited your post`, body: "something to like" });
  });

  test("a long status is cut to 140 characters; a content warning is shown instead of the text", async () => {
    const [alice, bob] = [await newUser(t, "cut"), await newUser(t, "cutbob")];
    const device = newDevice();
    await subscribe(alice, "/cut", device, { standard: true });
    await postStatus(t, bob, `@${alice.username} ${"word ".repeat(60)}`);
    await postStatus(t, bob, { status: `@${alice.username} the spoiled part`, spoiler_text: "Spoilers ahead" });
    const pushes = await receiver.waitFor("/cut", 2);
    const bodies: string[] = pushes.map((push) => open(device, push).message.body);
    expect(bodies).toContain("Spoilers ahead");
    const long = bodies.find((body) => body !== "Spoilers ahead")!;
    expect([...long].length).toBe(140);
    expect(long).toStartWith(`@${alice.username} word word`);
    expect(long).toEndWith("…");
  });

  test("alerts: a type that is off is not pushed", async () => {
    const [alice, bob] = [await newUser(t, "alr"), await newUser(t, "alrbob")];
    const device = newDevice();
    await subscribe(alice, "/alerts", device, { standard: true, alerts: { mention: true, favourite: false } });
    const status = await postStatus(t, alice, "like me");
    await favourite(t, bob, status.id);
    await follow(t, bob, alice);
    await postStatus(t, bob, `@${alice.username} now a mention`);
    await receiver.waitFor("/alerts");
    const pushes = await settled("/alerts");
    expect(pushes.map((push) => open(device, push).message.notification_type)).toEqual(["mention"]);
  });

  test("policy followed: only senders the recipient follows", async () => {
    const [alice, stranger, friend] = [await newUser(t, "pfd"), await newUser(t, "pfdstranger"), await newUser(t, "pfdfriend")];
    const device = newDevice();
    await subscribe(alice, "/followed", device, { standard: true, policy: "followed" });
    await follow(t, alice, friend);
    await postStatus(t, stranger, `@${alice.username} from a stranger`);
    await postStatus(t, friend, `@${alice.username} from a friend`);
    await receiver.waitFor("/followed");
    const pushes = await settled("/followed");
    expect(pushes.map((push) => open(device, push).message.body)).toEqual([`@${alice.username} from a friend`]);
  });

  test("policy follower: only senders who follow the recipient", async () => {
    const [alice, stranger, fan] = [await newUser(t, "pfr"), await newUser(t, "pfrstranger"), await newUser(t, "pfrfan")];
    const device = newDevice();
    await subscribe(alice, "/follower", device, { standard: true, policy: "follower", alerts: { mention: true } });
    await follow(t, fan, alice);
    await postStatus(t, stranger, `@${alice.username} from a stranger`);
    await postStatus(t, fan, `@${alice.username} from a fan`);
    await receiver.waitFor("/follower");
    const pushes = await settled("/follower");
    expect(pushes.map((push) => open(device, push).message.body)).toEqual([`@${alice.username} from a fan`]);
  });

  test("policy none: nothing is pushed", async () => {
    const [alice, bob] = [await newUser(t, "pnone"), await newUser(t, "pnonebob")];
    await subscribe(alice, "/none", newDevice(), { standard: true, policy: "none" });
    await follow(t, bob, alice);
    await postStatus(t, bob, `@${alice.username} hello`);
    await t.deps.jobs.drain();
    expect((await latestNotification(alice)).type).toBe("mention");
    expect(await settled("/none")).toEqual([]);
  });

  test("a 410 from the push service removes the subscription; nothing is posted to it again", async () => {
    const [alice, bob] = [await newUser(t, "gone"), await newUser(t, "gonebob")];
    receiver.answer.set("/gone", [410]);
    await subscribe(alice, "/gone", newDevice(), { standard: true });
    await postStatus(t, bob, `@${alice.username} first`);
    await receiver.waitFor("/gone");
    await t.deps.jobs.drain();
    const res = await get(t, "/api/v1/push/subscription", alice.token);
    expect(res.status).toBe(404);
    await postStatus(t, bob, `@${alice.username} second`);
    expect(await settled("/gone")).toHaveLength(1);
    expect(t.deps.jobs.stats().dead).toBe(0);
  });

  test("a 404 removes it too; a 503 is retried by the job queue", async () => {
    const [alice, bob] = [await newUser(t, "retry"), await newUser(t, "retrybob")];
    receiver.answer.set("/missing", [404]);
    receiver.answer.set("/busy", [503, 201]);
    const second = (await passwordToken(t, alice.app, alice.username, alice.password)).access_token;
    const busyDevice = newDevice();
    await subscribe({ token: second }, "/missing", newDevice(), { standard: true });
    await subscribe(alice, "/busy", busyDevice, { standard: true });
    await postStatus(t, bob, `@${alice.username} try again`);
    const [failed, delivered] = await receiver.waitFor("/busy", 2);
    expect(delivered!.at - failed!.at).toBeGreaterThanOrEqual(900);
    expect(open(busyDevice, delivered!).message.body).toBe(`@${alice.username} try again`);
    await t.deps.jobs.drain();
    expect(receiver.to("/missing")).toHaveLength(1);
    expect((await get(t, "/api/v1/push/subscription", second)).status).toBe(404);
    expect((await get(t, "/api/v1/push/subscription", alice.token)).status).toBe(200);
  });

  test("a retried job does not push again to the subscriptions its first attempt reached", async () => {
    const [alice, bob] = [await newUser(t, "dedup"), await newUser(t, "dedupbob")];
    receiver.answer.set("/flaky", [500, 201]);
    const second = (await passwordToken(t, alice.app, alice.username, alice.password)).access_token;
    await subscribe(alice, "/steady", newDevice(), { standard: true });
    await subscribe({ token: second }, "/flaky", newDevice(), { standard: true });
    await postStatus(t, bob, `@${alice.username} once each`);
    await receiver.waitFor("/flaky", 2);
    expect(await settled("/steady")).toHaveLength(1);
  });

  test("a subscription dies with its token: revoked, it is gone and nothing is pushed", async () => {
    const [alice, bob] = [await newUser(t, "rev"), await newUser(t, "revbob")];
    await subscribe(alice, "/revoked", newDevice(), { standard: true });
    expect(getPushSubscription(t.deps.store, sha256(alice.token))).toBeDefined();
    const res = await t.request("/oauth/revoke", { method: "POST", form: { client_id: alice.app.client_id, client_secret: alice.app.client_secret, token: alice.token } });
    expect(res.status).toBe(200);
    expect(getPushSubscription(t.deps.store, sha256(alice.token))).toBeUndefined();
    expect((await get(t, "/api/v1/push/subscription", alice.token)).status).toBe(401);
    await postStatus(t, bob, `@${alice.username} anyone there?`);
    expect(await settled("/revoked")).toEqual([]);
  });

  test("a notification the recipient would not be shown is not pushed (the sender's status is deleted first)", async () => {
    const [alice, bob] = [await newUser(t, "del"), await newUser(t, "delbob")];
    await subscribe(alice, "/deleted", newDevice(), { standard: true });
    t.deps.jobs.pause();
    const status = await postStatus(t, bob, `@${alice.username} soon gone`);
    const res = await t.request(`/api/v1/statuses/${status.id}`, { method: "DELETE", token: bob.token });
    expect(res.status).toBe(200);
    t.deps.jobs.resume();
    expect(await settled("/deleted")).toEqual([]);
  });
});

describe("the connection", () => {
  const record = (endpoint: string, device: Device): PushSubscriptionRecord => ({
    v: 1, id: 999_999, tokenHash: "x", accountId: "x", accessToken: "token", endpoint, p256dh: device.p256dh, auth: device.auth,
    standard: true, alerts: {}, policy: "all", createdAt: 0, updatedAt: 0,
  });

  test("a name is resolved once and the connection goes to that address, the Host header keeping the name", async () => {
    const device = newDevice();
    const port = new URL(receiver.base).port;
    const outcome = await sendPush(t.deps.config, ensureVapidKeys(t.deps.store), record(`http://push.test:${port}/pinned`, device), '{"hello":1}', {
      resolve: async (host) => (host === "push.test" ? ["127.0.0.1"] : []),
    });
    expect(outcome).toEqual({ kind: "sent", status: 201 });
    const [push] = receiver.to("/pinned");
    expect(push!.headers.get("host")).toBe(`push.test:${port}`);
    expect(decryptPush(device, push!.headers, push!.body)).toBe('{"hello":1}');
  });

  test("without WARREN_ALLOW_PRIVATE_ADDRESSES a name resolving to loopback, or plain http, is refused before connecting", async () => {
    const strict = { ...t.deps.config, allowPrivateAddresses: false };
    const vapid = ensureVapidKeys(t.deps.store);
    const port = new URL(receiver.base).port;
    const toLoopback = { resolve: async () => ["127.0.0.1"] };
    expect(await sendPush(strict, vapid, record(`https://push.test:${port}/refused`, newDevice()), "{}", toLoopback)).toMatchObject({ kind: "refused" });
    expect(await sendPush(strict, vapid, record(`http://push.test:${port}/refused`, newDevice()), "{}", toLoopback)).toEqual({ kind: "refused", reason: "scheme http:" });
    expect(receiver.to("/refused")).toEqual([]);
  });
});
