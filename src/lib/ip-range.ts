// An address or CIDR range typed by staff (the admin accounts `ip` filter), and whether an address is in it.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export type IpRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** `1.2.3.4`, `1.2.3.0/24`, `2001:db8::/32`…; null when it is neither an address nor a range. */
export function parseRange(text: string): IpRange | null {
  const trimmed = text.trim();
  try {
    if (trimmed.includes("/")) return ipaddr.parseCIDR(trimmed);
    if (!isIP(trimmed)) return null;
    const address = ipaddr.process(trimmed);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  } catch {
    return null;
  }
}

export function inRange(address: string, range: IpRange): boolean {
  if (!isIP(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.kind() === range[0].kind() && parsed.match(range);
}
