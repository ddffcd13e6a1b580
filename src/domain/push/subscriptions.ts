// The Web Push subscription of an access token (API.md §7.8): one per token, replaced by POST, its data
// (alerts and policy) replaced by PUT, removed by DELETE and with the token. Validation as Mastodon's model
// (endpoint a URL, keys that encrypt), plus what delivery needs: an https endpoint on a public host unless
// private addresses are allowed (tests, closed networks), keys of exactly RFC 8291's sizes.
import { createECDH } from "node:crypto";
import { isIP } from "node:net";
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { isPrivateAddress } from "../../lib/private-address.ts";
import { bareHostname } from "../../lib/url-safety.ts";
import { getPushSubscription, nextPushSubscriptionId, putPushSubscription, removePushSubscription } from "../../store/push.ts";
import type { UserViewer } from "../auth/viewer.ts";
import type { PushPolicy, PushSubscriptionRecord } from "../../model/notifications.ts";

/** Mastodon's Notification::TYPES: the alerts a subscription may turn on (absent = off). */
export const PUSH_ALERT_TYPES = [
  "mention",
  "status",
  "reblog",
  "follow",
  "follow_request",
  "favourite",
  "poll",
  "update",
  "admin.sign_up",
  "admin.report",
  "severed_relationships",
  "moderation_warning",
  "annual_report",
  "quote",
  "quoted_update",
] as const;

export type PushAlertType = (typeof PUSH_ALERT_TYPES)[number];

export const PUSH_POLICIES: readonly PushPolicy[] = ["all", "followed", "follower", "none"];

/** Longest endpoint accepted (push services' URLs are a few hundred characters). */
export const MAX_ENDPOINT_LENGTH = 2048;

export interface PushKeysInput {
  endpoint?: string;
  p256dh?: string;
  auth?: string;
  standard: boolean;
}

export interface PushDataInput {
  alerts: Partial<Record<PushAlertType, boolean>>;
  policy?: string;
}

/** Only the types named and on are kept: absent means off, as on Mastodon. */
function alertsOf(data: PushDataInput): Record<string, boolean> {
  const alerts: Record<string, boolean> = {};
  for (const type of PUSH_ALERT_TYPES) if (data.alerts[type] === true) alerts[type] = true;
  return alerts;
}

function policyOf(data: PushDataInput): PushPolicy {
  if (data.policy === undefined || data.policy === "") return "all";
  if (!(PUSH_POLICIES as readonly string[]).includes(data.policy)) throw new Unprocessable("Validation failed: Policy is not included in the list");
  return data.policy as PushPolicy;
}

/** The endpoint to store: as the client sent it (masto.js and Mastodon.py compare it verbatim, so
 * `https://example.com` must not come back as `https://example.com/`), once checked as a URL. Only surrounding
 * whitespace, never part of a URL, is dropped. */
function checkEndpoint(raw: string | undefined, allowPrivateAddresses: boolean): string {
  const endpoint = raw?.trim() ?? "";
  if (!endpoint) throw new Unprocessable("Validation failed: Endpoint can't be blank");
  if (endpoint.length > MAX_ENDPOINT_LENGTH) throw new Unprocessable(`Validation failed: Endpoint is too long (maximum is ${MAX_ENDPOINT_LENGTH} characters)`);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Unprocessable("Validation failed: Endpoint is not a valid URL");
  }
  const schemes = allowPrivateAddresses ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol) || !url.hostname) throw new Unprocessable("Validation failed: Endpoint must be an https URL");
  if (url.username || url.password) throw new Unprocessable("Validation failed: Endpoint must not carry credentials");
  if (!allowPrivateAddresses) {
    // Names are resolved (and refused if private) at each delivery; what needs no resolving is refused now.
    const host = bareHostname(url);
    if (host === "localhost" || host.endsWith(".localhost") || (isIP(host) && isPrivateAddress(host))) {
      throw new Unprocessable("Validation failed: Endpoint must be on a public host");
    }
  }
  return endpoint;
}

/** Base64 in either alphabet, padded or not → the bytes; null when it is not base64 at all. */
function decodeKey(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  return Buffer.from(text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"), "base64url");
}

function checkKeys(input: PushKeysInput): { p256dh: string; auth: string } {
  const p256dhText = input.p256dh?.trim() ?? "";
  const authText = input.auth?.trim() ?? "";
  if (!p256dhText) throw new Unprocessable("Validation failed: Key p256dh can't be blank");
  if (!authText) throw new Unprocessable("Validation failed: Key auth can't be blank");
  const p256dh = decodeKey(p256dhText);
  if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04 || !onCurve(p256dh)) {
    throw new Unprocessable("Validation failed: Key p256dh is not a valid P-256 public key");
  }
  const auth = decodeKey(authText);
  if (!auth || auth.length !== 16) throw new Unprocessable("Validation failed: Key auth must be 16 bytes");
  return { p256dh: p256dh.toString("base64url"), auth: auth.toString("base64url") };
}

/** Whether the uncompressed point is on P-256 (ECDH refuses any other). */
function onCurve(point: Buffer): boolean {
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.alloc(32, 1));
    ecdh.computeSecret(point);
    return true;
  } catch {
    return false;
  }
}

/** Mastodon answers a token without a subscription with its explicit `not_found` (API.md §1.2). */
const NO_SUBSCRIPTION = "Not Found";

/** The subscription of the viewer's token; 404 when it has none. */
export function currentSubscription(deps: Pick<Deps, "store">, viewer: UserViewer): PushSubscriptionRecord {
  const record = getPushSubscription(deps.store, viewer.token.hash);
  if (!record) throw new NotFound(NO_SUBSCRIPTION);
  return record;
}

/**
 * POST: replaces the token's subscription with a new one (a new id). `accessToken` is the token as sent, kept
 * for the payload's `access_token` (store/push.ts).
 */
export async function subscribe(
  deps: Pick<Deps, "store" | "config">,
  viewer: UserViewer,
  accessToken: string,
  keys: PushKeysInput,
  data: PushDataInput,
  now = Date.now(),
): Promise<PushSubscriptionRecord> {
  const endpoint = checkEndpoint(keys.endpoint, deps.config.allowPrivateAddresses);
  const { p256dh, auth } = checkKeys(keys);
  const alerts = alertsOf(data);
  const policy = policyOf(data);
  return deps.store.write(() => {
    const record: PushSubscriptionRecord = {
      v: 1,
      id: nextPushSubscriptionId(deps.store),
      tokenHash: viewer.token.hash,
      accountId: viewer.account.id,
      accessToken,
      endpoint,
      p256dh,
      auth,
      standard: keys.standard,
      alerts,
      policy,
      createdAt: now,
      updatedAt: now,
    };
    putPushSubscription(deps.store, record);
    return record;
  });
}

/** PUT: replaces the alerts and policy wholesale (absent alerts are off, absent policy is `all`). */
export async function changeSubscriptionData(deps: Pick<Deps, "store">, viewer: UserViewer, data: PushDataInput, now = Date.now()): Promise<PushSubscriptionRecord> {
  const alerts = alertsOf(data);
  const policy = policyOf(data);
  return deps.store.write(() => {
    const record = getPushSubscription(deps.store, viewer.token.hash);
    if (!record) throw new NotFound(NO_SUBSCRIPTION);
    const changed: PushSubscriptionRecord = { ...record, alerts, policy, updatedAt: now };
    putPushSubscription(deps.store, changed);
    return changed;
  });
}

/** DELETE: removes the token's subscription, if any. */
export async function unsubscribe(deps: Pick<Deps, "store">, viewer: UserViewer): Promise<void> {
  if (!getPushSubscription(deps.store, viewer.token.hash)) return;
  await deps.store.write(() => removePushSubscription(deps.store, viewer.token.hash));
}
