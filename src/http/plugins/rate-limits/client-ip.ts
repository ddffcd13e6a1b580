// Which client a request counts against. The direct peer is the client unless it is a trusted proxy
// (loopback, or a range in WARREN_TRUSTED_PROXIES); then X-Forwarded-For is read from the right, skipping
// trusted hops, and the first other address is the client (what Rails' remote_ip does for Mastodon).
// Requests handled in-process (`app.handle`, no socket) have no peer: they are taken as coming from
// loopback, so their X-Forwarded-For is used — tests set the client address that way.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

const LOOPBACK: Range[] = [ipaddr.parseCIDR("127.0.0.0/8"), ipaddr.parseCIDR("::1/128")];
const NO_PEER = ipaddr.parse("127.0.0.1");

/** Strict textual addresses only; IPv4-mapped IPv6 (::ffff:a.b.c.d, as dual-stack sockets report) is IPv4. */
function parse(text: string): Address | null {
  const trimmed = text.trim();
  return isIP(trimmed) ? ipaddr.process(trimmed) : null;
}

/** Loopback plus the configured proxies; entries were checked by the configuration. */
export function trustedRanges(configured: readonly string[]): Range[] {
  const ranges = configured.map((entry): Range => {
    if (entry.includes("/")) return ipaddr.parseCIDR(entry);
    const address = ipaddr.process(entry);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  });
  return [...LOOPBACK, ...ranges];
}

const isTrusted = (address: Address, ranges: Range[]) => ranges.some((range) => range[0].kind() === address.kind() && address.match(range));

/** Mastodon's throttleable_remote_ip: an IPv6 client is counted per /64, which one subscriber usually holds. */
function bucket(address: Address): string {
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}

function client(peer: string | null, forwardedFor: string | null, ranges: Range[]): Address | null {
  let found = peer === null ? NO_PEER : parse(peer);
  if (!found || !isTrusted(found, ranges) || !forwardedFor) return found;
  const hops = forwardedFor.split(",");
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parse(hops[i]!);
    if (!hop) continue; // garbage a client wrote; the proxies' own entries are further right
    found = hop;
    if (!isTrusted(hop, ranges)) break;
  }
  return found;
}

export function clientBucket(peer: string | null, forwardedFor: string | null, ranges: Range[]): string {
  const found = client(peer, forwardedFor, ranges);
  return found ? bucket(found) : "unknown";
}

/** The client's own address (sign-ins and sign-ups are recorded with it), or null when unreadable. */
export function clientAddress(peer: string | null, forwardedFor: string | null, ranges: Range[]): string | null {
  return client(peer, forwardedFor, ranges)?.toString() ?? null;
}
