// The private-address guard used before any server-side fetch of a user-supplied URL.
import { describe, expect, test } from "bun:test";
import { assertFetchableUrl, isPrivateAddress } from "../../src/lib/url-safety.ts";

describe("isPrivateAddress", () => {
  test("loopback, private, link-local, CGNAT, multicast and reserved IPv4 ranges", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255"]) {
      expect(isPrivateAddress(ip)).toBe(true);
    }
    for (const ip of ["8.8.8.8", "172.32.0.1", "93.184.216.34", "1.1.1.1"]) expect(isPrivateAddress(ip)).toBe(false);
  });

  test("IPv6: loopback, unspecified, unique-local, link-local, mapped and NAT64 forms", () => {
    for (const ip of ["::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "64:ff9b::a00:1", "ff02::1", "2001:db8::1"]) {
      expect(isPrivateAddress(ip)).toBe(true);
    }
    for (const ip of ["2606:4700:4700::1111", "::ffff:8.8.8.8", "2a00:1450:4001:80b::200e"]) expect(isPrivateAddress(ip)).toBe(false);
  });

  test("anything that is not an address is refused", () => {
    expect(isPrivateAddress("example.com")).toBe(true);
  });
});

describe("assertFetchableUrl", () => {
  test("refuses other schemes, credentials, localhost and literal private addresses", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/", "http://user:pw@example.com/", "http://localhost:3000/", "http://127.0.0.1/", "http://[::1]/", "http://10.0.0.1/"]) {
      await expect(assertFetchableUrl(new URL(url), false)).rejects.toThrow();
    }
  });

  test("allows private addresses when the operator says so, never other schemes", async () => {
    await assertFetchableUrl(new URL("http://127.0.0.1:1234/"), true);
    await expect(assertFetchableUrl(new URL("file:///etc/passwd"), true)).rejects.toThrow();
  });

  test("a public literal address passes", async () => {
    await assertFetchableUrl(new URL("https://8.8.8.8/"), false);
  });
});
