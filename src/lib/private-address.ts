// Which IP addresses a server-side fetch must not connect to: loopback, private, link-local, shared (CGNAT),
// multicast, reserved, documentation and benchmarking ranges, and every IPv6 form that carries such an IPv4
// address inside it (IPv4-mapped and -translated, NAT64, 6to4, Teredo). IPv6 is judged by allow-list: only
// global unicast (2000::/3) can be public, so unique-local, link-local, site-local, multicast, the
// IPv4-compatible ::/96 and the local-use NAT64 prefix 64:ff9b:1::/48 are all refused.
import { isIP } from "node:net";

/** [first address, prefix length] of the IPv4 ranges that are not public unicast. */
const NON_PUBLIC_V4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the limited broadcast 255.255.255.255
];

function v4ToNumber(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

const NON_PUBLIC_V4_RANGES = NON_PUBLIC_V4.map(([first, bits]) => ({ first: v4ToNumber(first), size: 2 ** (32 - bits) }));

function isPrivateV4(n: number): boolean {
  return NON_PUBLIC_V4_RANGES.some(({ first, size }) => n >= first && n < first + size);
}

/** The IPv4 address carried by two 16-bit groups. */
function v4From(high: number, low: number): number {
  return high * 0x10000 + low;
}

/** The eight 16-bit groups of a valid IPv6 address; a dotted IPv4 tail becomes the last two groups. */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0]!; // a zone id (fe80::1%eth0) names an interface, not an address
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToNumber(dotted[1]!);
    text = `${text.slice(0, -dotted[1]!.length)}${Math.floor(n / 0x10000).toString(16)}:${(n % 0x10000).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const zeros = (groups: number[]) => groups.every((group) => group === 0);

function isPrivateV6(g: number[]): boolean {
  // Forms that embed an IPv4 address: judged by that address.
  if (zeros(g.slice(0, 5)) && g[5] === 0xffff) return isPrivateV4(v4From(g[6]!, g[7]!)); // ::ffff:a.b.c.d mapped
  if (zeros(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0) return isPrivateV4(v4From(g[6]!, g[7]!)); // translated
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(g.slice(2, 6))) return isPrivateV4(v4From(g[6]!, g[7]!)); // NAT64
  if (g[0] === 0x2002) return isPrivateV4(v4From(g[1]!, g[2]!)); // 6to4 2002:AABB:CCDD::/48
  if (g[0] === 0x2001 && g[1] === 0) {
    // Teredo 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client address stored bit-inverted.
    const client = v4From(g[6]! ^ 0xffff, g[7]! ^ 0xffff);
    return isPrivateV4(v4From(g[2]!, g[3]!)) || isPrivateV4(client);
  }
  if ((g[0]! & 0xe000) !== 0x2000) return true; // outside global unicast 2000::/3
  if (g[0] === 0x2001 && g[1]! < 0x0200) return true; // IETF protocol assignments 2001::/23 (benchmarking, ORCHID…)
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation 2001:db8::/32
  if (g[0] === 0x3fff && g[1]! < 0x1000) return true; // documentation 3fff::/20
  return false;
}

/** True unless `ip` is a public unicast address; anything that is not an IP address counts as private. */
export function isPrivateAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return isPrivateV4(v4ToNumber(ip));
  if (family === 6) return isPrivateV6(v6Groups(ip));
  return true;
}
