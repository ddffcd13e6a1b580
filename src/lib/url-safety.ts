// Guard for server-side fetches of user-supplied URLs (link cards, later remote media): only http(s), and
// never an address on the loopback, private, link-local or otherwise non-public ranges, unless the operator
// allows it (WARREN_ALLOW_PRIVATE_ADDRESSES, for tests and closed networks). Every address a host name
// resolves to is checked, and the check is repeated on each redirect hop.
import { isIP } from "node:net";

export class UnsafeUrl extends Error {}

/** [network, prefix length] pairs of IPv4 ranges that are not public unicast. */
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
  ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
];

function v4ToInt(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function isPrivateV4(ip: string): boolean {
  const n = v4ToInt(ip);
  return PRIVATE_V4.some(([net, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4ToInt(net);
    return n >= start && n < start + size;
  });
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail is converted). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToInt(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (s: string) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill(0);
  return [...left, ...fill, ...right];
}

function isPrivateV6(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return true;
  const v4Tail = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (g.slice(0, 7).every((x) => x === 0)) return true; // :: and ::1 (and the deprecated ::a.b.c.d)
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return isPrivateV4(v4Tail); // IPv4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isPrivateV4(v4Tail); // NAT64
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((first & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((first & 0xff00) === 0xff00) return true; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return true; // discard prefix
  return false;
}

export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return isPrivateV4(ip);
  if (family === 6) return isPrivateV6(ip);
  return true;
}

/** Throws UnsafeUrl unless `url` is http(s) and (unless allowed) resolves only to public addresses. */
export async function assertFetchableUrl(url: URL, allowPrivateAddresses: boolean): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UnsafeUrl(`scheme ${url.protocol} is not fetched`);
  if (url.username || url.password) throw new UnsafeUrl("URLs with credentials are not fetched");
  if (allowPrivateAddresses) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) throw new UnsafeUrl("loopback host");
  // Bun's resolver, not node:dns: node's lookup run in a job worker thread was seen stalling the server's
  // own database commits for seconds.
  const addresses = isIP(host) ? [host] : (await Bun.dns.lookup(host)).map((a) => a.address);
  if (addresses.length === 0) throw new UnsafeUrl(`${host} does not resolve`);
  for (const address of addresses) {
    if (isPrivateAddress(address)) throw new UnsafeUrl(`${host} resolves to a non-public address`);
  }
}
