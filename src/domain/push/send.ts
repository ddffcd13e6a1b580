// Posting one encrypted message to one push service. The `web-push` library encrypts it (RFC 8291 aes128gcm,
// or the legacy aesgcm draft for subscriptions made without `standard`) and signs the VAPID header (RFC 8292)
// through generateRequestDetails(); its own sendNotification() is not used: it speaks https only, through
// node's https module, to whatever address the name resolves to at connect time. The request goes out as the
// rest of Warren's outgoing requests do (lib/safe-fetch.ts): the endpoint's name resolved once and checked
// (lib/url-safety.ts: no private or special addresses unless WARREN_ALLOW_PRIVATE_ADDRESSES), the connection
// made to exactly that address (Host and TLS name kept), no redirects followed, a time limit.
import type { Config } from "../../config.ts";
import { bareHostname, resolveFetchTarget, UnsafeUrl, type Resolver } from "../../lib/url-safety.ts";
import { vapidSubject } from "./vapid.ts";
import { warrenUserAgent } from "../limits.ts";
import type { PushSubscriptionRecord, VapidKeys } from "../../model/notifications.ts";

/** How long a push service keeps a message for an offline device (Mastodon: 48 hours), in seconds. */
export const PUSH_TTL_SECONDS = 48 * 3600;
/** A push service answers at once; a slow one is retried later rather than holding a network slot. */
export const PUSH_TIMEOUT_MS = 15_000;

/**
 * What became of a message: `sent` (2xx); `gone` (the subscription is no more: 404, 410, or another 4xx that
 * will never succeed, as Mastodon treats them); `refused` (not sent and not worth retrying: the endpoint is
 * not allowed, or it redirects). Anything worth retrying (5xx, 408, 429, a network error) is thrown.
 */
export type PushOutcome = { kind: "sent"; status: number } | { kind: "gone"; status: number } | { kind: "refused"; reason: string };

export class PushRetry extends Error {}

export interface SendOptions {
  /** Tests play DNS with it (lib/url-safety.ts). */
  resolve?: Resolver;
}

/** The request web-push prepares: encrypted body, Content-Encoding (and Encryption/Crypto-Key), TTL, Urgency, Authorization. */
export async function pushRequest(config: Config, vapid: VapidKeys, subscription: PushSubscriptionRecord, message: string) {
  // Loaded on the first push, not at start-up (~20 ms of the server's import: docs/benchmarks.md).
  const { default: webpush } = await import("web-push");
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    message,
    {
      vapidDetails: { subject: vapidSubject(config), publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: PUSH_TTL_SECONDS,
      urgency: "normal",
      contentEncoding: subscription.standard ? "aes128gcm" : "aesgcm",
    },
  );
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) {
    if (name.toLowerCase() !== "content-length") headers[name] = String(value);
  }
  return { headers, body: details.body! };
}

export async function sendPush(
  config: Config,
  vapid: VapidKeys,
  subscription: PushSubscriptionRecord,
  message: string,
  options: SendOptions = {},
): Promise<PushOutcome> {
  const url = new URL(subscription.endpoint);
  if (url.protocol !== "https:" && !(config.allowPrivateAddresses && url.protocol === "http:")) {
    return { kind: "refused", reason: `scheme ${url.protocol}` };
  }
  let address: string;
  try {
    address = await resolveFetchTarget(url, { allowPrivateAddresses: config.allowPrivateAddresses, resolve: options.resolve });
  } catch (error) {
    if (error instanceof UnsafeUrl) return { kind: "refused", reason: error.message };
    throw error;
  }
  const { headers, body } = await pushRequest(config, vapid, subscription, message);
  const target = new URL(url);
  const pinned = bareHostname(url) !== address;
  if (pinned) target.hostname = address.includes(":") ? `[${address}]` : address;
  const response = await fetch(target, {
    method: "POST",
    body,
    headers: { ...headers, "user-agent": warrenUserAgent(config.url), ...(pinned ? { host: url.host } : {}) },
    redirect: "manual",
    signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    // A fresh connection per request: a pooled one could have been opened for another name.
    keepalive: false,
    ...(pinned && url.protocol === "https:" ? { tls: { serverName: url.hostname } } : {}),
  });
  await response.body?.cancel().catch(() => {});
  const status = response.status;
  if (status >= 200 && status < 300) return { kind: "sent", status };
  if (status >= 300 && status < 400) return { kind: "refused", reason: `redirect (${status})` };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return { kind: "gone", status };
  throw new PushRetry(`push service answered ${status}`);
}
