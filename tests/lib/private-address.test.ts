// The address classifier behind the outgoing-fetch guard: every form of a non-public address is private.
import { describe, expect, test } from "bun:test";
import { isPrivateAddress } from "../../src/lib/private-address.ts";

function expectPrivate(addresses: string[]) {
  for (const ip of addresses) expect({ ip, private: isPrivateAddress(ip) }).toEqual({ ip, private: true });
}
function expectPublic(addresses: string[]) {
  for (const ip of addresses) expect({ ip, private: isPrivateAddress(ip) }).toEqual({ ip, private: false });
}

describe("IPv4", () => {
  test("loopback, private, link-local, shared (CGNAT), multicast, reserved, broadcast, this-network", () => {
    expectPrivate([
      "127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
      "100.64.0.1", "100.127.255.255", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "240.0.0.1",
      "255.255.255.255", "192.0.0.8",
    ]);
  });

  test("documentation and benchmarking ranges", () => {
    expectPrivate(["192.0.2.1", "198.51.100.7", "203.0.113.9", "198.18.0.1", "198.19.255.255"]);
  });

  test("public addresses, including the neighbours of the ranges", () => {
    expectPublic(["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.128.0.1", "100.63.255.255", "11.0.0.1", "223.255.255.255", "192.169.0.1"]);
  });
});

describe("IPv6", () => {
  test("loopback, unspecified, unique-local, link-local, site-local, multicast, documentation, discard", () => {
    expectPrivate(["::1", "::", "0:0:0:0:0:0:0:1", "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "febf::1", "fec0::1", "ff02::1", "2001:db8::1", "3fff::1", "100::1"]);
  });

  test("IPv4-mapped and -translated forms of private addresses, dotted or in hex", () => {
    expectPrivate(["::ffff:127.0.0.1", "::ffff:7f00:1", "::FFFF:7F00:0001", "::ffff:10.0.0.1", "::ffff:a00:1", "::ffff:a9fe:a9fe", "::ffff:0:127.0.0.1", "::ffff:0:7f00:1", "0:0:0:0:0:ffff:c0a8:101"]);
    expectPublic(["::ffff:8.8.8.8", "::ffff:808:808", "::ffff:0:808:808"]);
  });

  test("IPv4-compatible forms (::/96, deprecated, never routed) are refused whatever they embed", () => {
    expectPrivate(["::127.0.0.1", "::7f00:1", "::10.0.0.1", "::8.8.8.8"]);
  });

  test("NAT64: the well-known prefix by what it embeds, the local-use prefix always", () => {
    expectPrivate(["64:ff9b::127.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b::c0a8:1", "64:ff9b:1::808:808", "64:ff9b:1:ffff::1"]);
    expectPublic(["64:ff9b::8.8.8.8", "64:ff9b::808:808"]);
  });

  test("6to4: 2002:AABB:CCDD:: carries the IPv4 address AA.BB.CC.DD", () => {
    expectPrivate(["2002:7f00:1::", "2002:7f00:0001::1", "2002:a00:1::", "2002:c0a8:101::1", "2002:a9fe:a9fe::"]);
    expectPublic(["2002:808:808::1"]);
  });

  test("Teredo: a private server or a private (bit-inverted) client address is private", () => {
    // Client 127.0.0.1 is stored as ~0x7f000001 = 80ff:fffe.
    expectPrivate(["2001:0:4136:e378:8000:63bf:80ff:fffe", "2001::808:808:0:0:80ff:fffe", "2001:0:a00:1::f7f7:f7f7", "2001:0:4136:e378::3fff:fffe"]);
    // Server 65.54.227.120, client 8.8.8.8 (~ = f7f7:f7f7).
    expectPublic(["2001:0:4136:e378:8000:63bf:f7f7:f7f7"]);
  });

  test("other IETF assignments in 2001::/23 (benchmarking 2001:2::/48, ORCHID) and anything outside 2000::/3", () => {
    expectPrivate(["2001:2::1", "2001:10::1", "2001:20::1", "5f00::1", "4000::1", "e000::1"]);
  });

  test("global unicast is public", () => {
    expectPublic(["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "2001:4860:4860::8888", "2001:200::1"]);
  });
});

test("anything that is not an address is refused, including the shorthand IPv4 forms URLs normalise", () => {
  expectPrivate(["example.com", "", "2130706433", "0x7f000001", "127.1", "0177.0.0.1", "[::1]", "1.2.3.4.5"]);
});
