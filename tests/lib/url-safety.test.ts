// The check before a server-side fetch: scheme, credentials, and the host resolved once to a public address.
import { describe, expect, test } from "bun:test";
import { resolveFetchTarget, type Resolver } from "../../src/lib/url-safety.ts";

const STRICT = { allowPrivateAddresses: false };
const answering = (...addresses: string[]): Resolver => async () => addresses;

describe("resolveFetchTarget", () => {
  test("refuses other schemes, credentials, localhost and literal private addresses in every spelling", async () => {
    const urls = [
      "file:///etc/passwd", "ftp://example.com/", "http://user:pw@example.com/", "http://localhost:3000/", "http://a.localhost/",
      "http://127.0.0.1/", "http://2130706433/", "http://0x7f.1/", "http://0177.0.0.1/", "http://127.1/", "http://[::1]/",
      "http://10.0.0.1/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[::127.0.0.1]/",
      "http://[2002:7f00:1::]/", "http://[64:ff9b::7f00:1]/", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    ];
    for (const url of urls) {
      await expect(resolveFetchTarget(new URL(url), STRICT), url).rejects.toThrow();
    }
  });

  test("a name is refused when any of its addresses is private, or when it does not resolve", async () => {
    await expect(resolveFetchTarget(new URL("https://mixed.example/"), { ...STRICT, resolve: answering("8.8.8.8", "::ffff:10.0.0.1") })).rejects.toThrow("non-public");
    await expect(resolveFetchTarget(new URL("https://nothing.example/"), { ...STRICT, resolve: answering() })).rejects.toThrow("does not resolve");
    const failing: Resolver = async () => {
      throw new Error("ENOTFOUND");
    };
    await expect(resolveFetchTarget(new URL("https://broken.example/"), { ...STRICT, resolve: failing })).rejects.toThrow("does not resolve");
  });

  test("the resolver is asked once and its first address is the one to connect to", async () => {
    let calls = 0;
    const resolve: Resolver = async () => {
      calls++;
      return ["93.184.216.34", "2606:2800:220:1::1"];
    };
    expect(await resolveFetchTarget(new URL("https://example.com/page"), { ...STRICT, resolve })).toBe("93.184.216.34");
    expect(calls).toBe(1);
    expect(await resolveFetchTarget(new URL("https://8.8.8.8/"), STRICT)).toBe("8.8.8.8");
  });

  test("private addresses are allowed when the operator says so, other schemes never", async () => {
    expect(await resolveFetchTarget(new URL("http://127.0.0.1:1234/"), { allowPrivateAddresses: true })).toBe("127.0.0.1");
    expect(await resolveFetchTarget(new URL("http://localhost/"), { allowPrivateAddresses: true, resolve: answering("::1") })).toBe("::1");
    await expect(resolveFetchTarget(new URL("file:///etc/passwd"), { allowPrivateAddresses: true })).rejects.toThrow();
  });
});
