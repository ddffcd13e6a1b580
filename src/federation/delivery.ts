// Outgoing deliveries (Fedify's "outbox" messages, each a job: queue.ts) and the rules around them.
//
// Where they may go. Fedify POSTs activities with the global `fetch` and offers no hook for it (its
// allowPrivateAddress only covers the document loaders, which are ours anyway: loader.ts). So each outbox
// message is checked before Fedify sees it (`messageGate`): an inbox that is not http(s), on a domain cut off
// by an instance domain block (domain-policy.ts), or on a loopback/private address (unless
// WARREN_ALLOW_PRIVATE_ADDRESSES=true) is dropped, not retried. The delivery then runs in a scope in which
// `fetch` POSTs go through `guardedPost`: each hop (Fedify follows redirects itself) is checked again and the
// request is pinned to the address that was checked (lib/url-safety.ts), all within DELIVERY_TIMEOUT_MS. Other
// code's fetches, and GETs inside the scope (the loaders, already guarded), are left as they are.
//
// Retries and failing servers are Fedify's: `deliveryOptions` sets its retry policy (exponential, first
// delay WARREN_DELIVERY_RETRY_MS), which statuses are permanent (Mastodon's unsalvageable ones: 4xx except
// 401, 408 and 429, so 410 Gone; never retried), and its per-host circuit breaker: 5 transport failures or
// 5xx within 10 minutes open the circuit, after which the host's deliveries are held, not sent, and one probe
// goes every WARREN_DELIVERY_RECOVERY_MS; a success closes it, held deliveries older than 7 days are
// dropped. Mastodon also clears a failing host when an activity arrives from it: `messageGate` does that for
// every verified incoming activity.
import { AsyncLocalStorage } from "node:async_hooks";
import { isIP } from "node:net";
import { createExponentialBackoffPolicy, type FederationOptions } from "@fedify/fedify";
import type { Config } from "../config.ts";
import type { Store } from "../store/db.ts";
import { isPrivateAddress } from "../lib/private-address.ts";
import { pinnedTo } from "../lib/safe-fetch.ts";
import { bareHostname, resolveFetchTarget, systemResolver, UnsafeUrl } from "../lib/url-safety.ts";
import { LmdbKvStore } from "./kv.ts";
import { actorIdsOf, isBlockedUrl } from "./domain-policy.ts";
import { countDelivery, countInboxActivity, DELIVERY_RESULT } from "./metrics.ts";
import { signedAsMastodonSigns, SIGNATURE_SPEC_PREFIX } from "./ld-signatures.ts";
import { warrenUserAgent } from "../domain/limits.ts";

/** How long one delivery may take, every request of it (signature retry, redirects) and answers included:
 * well within the job's own time limit (jobs/registry.ts, 60 s). */
export const DELIVERY_TIMEOUT_MS = 30_000;

/** Where Fedify's circuit breaker keeps each host's state in federation_kv: `[...prefix, host]`. */
export const CIRCUIT_PREFIX = ["warren", "circuit"] as const;

/** Mastodon's unsalvageable answers (DeliveryWorker): any 4xx but 401, 408 and 429. */
export const PERMANENT_FAILURE_STATUSES: readonly number[] = Array.from({ length: 100 }, (_, i) => 400 + i).filter(
  (status) => status !== 401 && status !== 408 && status !== 429,
);

/** Fedify's delivery options: retry policy, permanent failures, circuit breaker (and where it keeps state). */
export function deliveryOptions(config: Config): Pick<FederationOptions<void>, "outboxRetryPolicy" | "permanentFailureStatusCodes" | "circuitBreaker" | "kvPrefixes"> {
  return {
    // Fedify's default shape (10 attempts, doubling, at most 12 h apart) from a configurable first delay.
    outboxRetryPolicy: createExponentialBackoffPolicy({ initialDelay: { milliseconds: config.deliveryRetryMs }, maxDelay: { hours: 12 }, maxAttempts: 10 }),
    permanentFailureStatusCodes: PERMANENT_FAILURE_STATUSES,
    circuitBreaker: { failureThreshold: 5, failureWindow: { minutes: 10 }, recoveryDelay: { milliseconds: config.deliveryRecoveryMs }, heldActivityTtl: { days: 7 } },
    // Each server's signature scheme, remembered for a day only (ld-signatures.ts, kv.ts).
    kvPrefixes: { circuitBreaker: [...CIRCUIT_PREFIX], httpMessageSignaturesSpec: [...SIGNATURE_SPEC_PREFIX] },
  };
}

interface DeliveryPolicy {
  store: Store;
  allowPrivateAddresses: boolean;
  /** Fedify sends deliveries with the runtime's own User-Agent (`Bun/…`): ours replaces it. */
  userAgent: string;
}

interface DeliveryScope extends DeliveryPolicy {
  /** The delivery's time budget, shared by its requests. */
  budget: AbortSignal;
}

const deliveryScope = new AsyncLocalStorage<DeliveryScope>();
const GUARDED = Symbol("warren.deliveryGuard");

/** A POST of a delivery: refused hops throw (Fedify retries them as transport failures), others are pinned. */
async function guardedPost(original: typeof fetch, policy: DeliveryScope, request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (isBlockedUrl(policy.store, url)) {
    DELIVERY_RESULT.refused.value++;
    throw new UnsafeUrl(`${url.host} is blocked`);
  }
  const address = await resolveFetchTarget(url, policy).catch((error) => {
    // A name that does not resolve is a failure to reach the server (retried), not a refusal.
    const unresolved = String((error as Error)?.message).endsWith("does not resolve");
    (unresolved ? DELIVERY_RESULT.network_error : DELIVERY_RESULT.refused).value++;
    throw error;
  });
  const { target, host, serverName } = pinnedTo(url, address);
  const headers = new Headers(request.headers);
  if (host) headers.set("host", host);
  headers.set("user-agent", policy.userAgent);
  return countDelivery(original(target, {
    method: request.method,
    headers,
    body: await request.arrayBuffer(),
    redirect: "manual",
    signal: AbortSignal.any([request.signal, policy.budget]),
    // A fresh connection per request: a pooled one could have been opened for another name.
    keepalive: false,
    ...(serverName ? { tls: { serverName } } : {}),
  }));
}

/** Puts the guard in front of this thread's `fetch` (again, if something replaced it since). */
function installGuard(): void {
  const current = globalThis.fetch as typeof fetch & { [GUARDED]?: true };
  if (current[GUARDED]) return;
  const guarded = (input: string | URL | Request, init?: RequestInit) => {
    const policy = deliveryScope.getStore();
    if (!policy) return current(input as Request, init);
    const request = new Request(input as Request, init);
    return request.method === "POST" ? guardedPost(current, policy, request) : current(input as Request, init);
  };
  globalThis.fetch = Object.assign(guarded, { preconnect: current.preconnect, [GUARDED]: true as const });
}

/** Why an inbox may not be delivered to at all, or null. A name that does not resolve is not refused here:
 * that may pass, so the delivery fails and is retried. */
async function refusal(policy: DeliveryPolicy, inbox: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(inbox);
  } catch {
    return "not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "not http(s)";
  if (url.username || url.password) return "credentials in the URL";
  if (isBlockedUrl(policy.store, url)) return "domain blocked";
  if (policy.allowPrivateAddresses) return null;
  const host = bareHostname(url);
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback host";
  const addresses = isIP(host) ? [host] : await systemResolver(host).catch(() => []);
  return addresses.some(isPrivateAddress) ? "non-public address" : null;
}

/** Mastodon's DeliveryFailureTracker.reset! on an incoming activity: its sender's host is reachable again. */
async function clearFailures(store: Store, actorIds: string[]): Promise<void> {
  const kv = new LmdbKvStore(store);
  for (const id of actorIds) {
    let host: string;
    try {
      host = new URL(id).host;
    } catch {
      continue;
    }
    const key = [...CIRCUIT_PREFIX, host] as const;
    if ((await kv.get(key)) !== undefined) await kv.delete(key);
  }
}

type Handle = (message: unknown) => Promise<void>;

/** What stands between a queued Fedify message and Fedify (queue.ts runs every message through it). */
export type MessageGate = (message: unknown, handle: Handle) => Promise<void>;

export function messageGate(deps: { store: Store; config: Config }): MessageGate {
  const policy: DeliveryPolicy = { store: deps.store, allowPrivateAddresses: deps.config.allowPrivateAddresses, userAgent: warrenUserAgent(deps.config.url) };
  return async (message, handle) => {
    const { type, inbox, activity } = (message ?? {}) as { type?: unknown; inbox?: unknown; activity?: unknown };
    if (type === "outbox") {
      // Dropped: the job ends, nothing is retried (no logger yet: Fedify's own logs are off too).
      if (typeof inbox !== "string" || (await refusal(policy, inbox))) {
        DELIVERY_RESULT.refused.value++;
        return;
      }
      installGuard();
      // No LD signature or proof on what is not public (ld-signatures.ts), as Mastodon sends it.
      const sent = { ...(message as object), activity: signedAsMastodonSigns(activity, deps.config.authorizedFetch) };
      return deliveryScope.run({ ...policy, budget: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) }, () => handle(sent));
    }
    if (type === "inbox") {
      const actors = actorIdsOf(activity);
      // Queued before its domain was blocked: dropped now, before any listener runs.
      if (actors.some((id) => isBlockedUrl(deps.store, id))) return;
      // Fedify queues an incoming activity only once its signature is verified.
      await clearFailures(deps.store, actors);
      await handle(message);
      countInboxActivity(activity);
      return;
    }
    return handle(message);
  };
}

/** Whether an actor's inbox and shared inbox may be stored: http(s), on the actor id's own origin. */
export function deliverableEndpoints(actorId: URL, inbox: URL, sharedInbox: URL | null): boolean {
  return [inbox, sharedInbox].every(
    (url) => url === null || ((url.protocol === "https:" || url.protocol === "http:") && url.origin === actorId.origin),
  );
}
