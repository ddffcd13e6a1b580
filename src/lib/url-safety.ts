// The check before any server-side fetch of a URL that came from outside (link cards, later remote media and
// federation): only http(s) without credentials, and the host name resolved ONCE to the address the fetch
// will connect to (lib/safe-fetch.ts pins it), so a DNS answer that changes between check and connect
// (rebinding) cannot lead the fetch elsewhere. Unless the operator allows it (WARREN_ALLOW_PRIVATE_ADDRESSES,
// for tests and closed networks), every address the name resolves to must be public (lib/private-address.ts).
import { isIP } from "node:net";
import { isPrivateAddress } from "./private-address.ts";

export class UnsafeUrl extends Error {}

/** Turns a host name into its addresses. A seam: tests pass their own to play a rebinding DNS server. */
export type Resolver = (hostname: string) => Promise<string[]>;

// Bun's resolver, not node:dns: node's lookup run in a job worker thread was seen stalling the server's own
// database commits for seconds.
export const systemResolver: Resolver = async (hostname) => (await Bun.dns.lookup(hostname)).map((entry) => entry.address);

export interface TargetPolicy {
  allowPrivateAddresses: boolean;
  resolve?: Resolver;
}

/** The bare host of a URL: IPv6 literals lose their brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** The address to connect to for `url`; throws UnsafeUrl when the URL or any address it resolves to is refused. */
export async function resolveFetchTarget(url: URL, policy: TargetPolicy): Promise<string> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsafeUrl(`scheme ${url.protocol} is not fetched`);
  if (url.username || url.password) throw new UnsafeUrl("URLs with credentials are not fetched");
  const host = bareHostname(url);
  if (!policy.allowPrivateAddresses && (host === "localhost" || host.endsWith(".localhost"))) throw new UnsafeUrl("loopback host");
  const addresses = isIP(host) ? [host] : await (policy.resolve ?? systemResolver)(host).catch(() => []);
  if (addresses.length === 0) throw new UnsafeUrl(`${host} does not resolve`);
  if (!policy.allowPrivateAddresses && addresses.some(isPrivateAddress)) throw new UnsafeUrl(`${host} resolves to a non-public address`);
  return addresses[0]!;
}
