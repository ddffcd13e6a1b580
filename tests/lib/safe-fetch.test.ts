// The outgoing-fetch guard end to end against local servers: the address checked is the address connected
// to (a rebinding resolver cannot redirect the connection), every redirect hop is checked again, and the
// size and time limits hold. Loopback servers are only reachable with allowPrivateAddresses on; the
// resolver is the guard's seam for playing DNS.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { join } from "node:path";
import { safeFetch, TooManyRedirects, type SafeFetchOptions } from "../../src/lib/safe-fetch.ts";
import { UnsafeUrl, type Resolver } from "../../src/lib/url-safety.ts";

let server: ReturnType<typeof Bun.serve>;
const seen: { host: string | null; path: string }[] = [];

beforeAll(() => {
  server = Bun.serve({
    // Every interface: the machine's own name (see the rebinding test) may resolve to 127.0.1.1 or to a
    // container's address rather than 127.0.0.1.
    hostname: "0.0.0.0",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      seen.push({ host: request.headers.get("host"), path: url.pathname });
      if (url.pathname === "/hello") return new Response(`hello ${request.headers.get("host")}`);
      if (url.pathname === "/big") return new Response("x".repeat(10_000));
      if (url.pathname === "/slow") return Bun.sleep(3000).then(() => new Response("late")); // past the time limit under test
      if (url.pathname === "/relative") return Response.redirect("/hello", 302);
      if (url.pathname === "/elsewhere") return Response.redirect(`http://second.test:${server.port}/hello`, 301);
      if (url.pathname === "/loop") return Response.redirect("/loop", 307);
      if (url.pathname === "/to-file") return Response.redirect("file:///etc/passwd", 302);
      return new Response("not found", { status: 404 });
    },
  });
});
afterAll(() => server.stop(true));

const loopback: Resolver = async () => ["127.0.0.1"];
const options = (extra: Partial<SafeFetchOptions> = {}): SafeFetchOptions => ({
  allowPrivateAddresses: true,
  maxBytes: 1024,
  maxRedirects: 3,
  timeoutMs: 2000,
  resolve: loopback,
  ...extra,
});
const text = (body: Uint8Array) => new TextDecoder().decode(body);

describe("connecting to the checked address", () => {
  test("a name is resolved once and the connection goes to that address, with the name as Host", async () => {
    const asked: string[] = [];
    const resolve: Resolver = async (name) => (asked.push(name), ["127.0.0.1"]);
    const response = await safeFetch(new URL(`http://first.test:${server.port}/hello`), options({ resolve }));
    expect(response.status).toBe(200);
    expect(text(response.body)).toBe(`hello first.test:${server.port}`);
    expect(response.url.href).toBe(`http://first.test:${server.port}/hello`);
    expect(asked).toEqual(["first.test"]);
  });

  test("a rebinding resolver (public first, loopback after) cannot make the fetch connect to loopback", async () => {
    const answers = [["93.184.215.14"], ["127.0.0.1"]];
    let calls = 0;
    const rebinding: Resolver = async () => answers[Math.min(calls++, 1)]!;
    const before = seen.length;
    // The machine's own name: a second lookup by the system (a fetch by name after the check) would reach
    // this server. The public address does not serve this port (or is unreachable here): the fetch fails.
    const attempt = safeFetch(new URL(`http://${hostname()}:${server.port}/hello`), options({ allowPrivateAddresses: false, resolve: rebinding, timeoutMs: 1000 }));
    await expect(attempt).rejects.toThrow();
    expect(calls).toBe(1);
    expect(seen.length).toBe(before);
  });

  test("https: the certificate is checked against the name while the connection goes to the pinned address", async () => {
    const fixtures = join(import.meta.dir, "../fixtures/tls");
    const tls = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert: Bun.file(join(fixtures, "pinned.test.crt")), key: Bun.file(join(fixtures, "pinned.test.key")) },
      fetch: (request) => new Response(`tls ${request.headers.get("host")}`),
    });
    const run = async (name: string) => {
      const child = Bun.spawn([process.execPath, join(import.meta.dir, "safe-fetch-child.ts"), String(tls.port), name], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: join(fixtures, "pinned.test.crt") },
        stdout: "pipe",
      });
      return (await new Response(child.stdout).text()).trim();
    };
    try {
      expect(await run("pinned.test")).toBe(`200 tls pinned.test:${tls.port}`);
      expect(await run("other.test")).toBe("refused: ERR_TLS_CERT_ALTNAME_INVALID");
    } finally {
      tls.stop(true);
    }
  }, 15_000);
});

describe("redirects", () => {
  test("relative and cross-name locations are followed, each hop resolved and checked again", async () => {
    const asked: string[] = [];
    const resolve: Resolver = async (name) => (asked.push(name), ["127.0.0.1"]);
    const relative = await safeFetch(new URL(`http://first.test:${server.port}/relative`), options({ resolve }));
    expect(text(relative.body)).toBe(`hello first.test:${server.port}`);
    const elsewhere = await safeFetch(new URL(`http://first.test:${server.port}/elsewhere`), options({ resolve }));
    expect(text(elsewhere.body)).toBe(`hello second.test:${server.port}`);
    expect(elsewhere.url.hostname).toBe("second.test");
    expect(asked).toEqual(["first.test", "first.test", "first.test", "second.test"]);
  });

  test("a hop to a refused URL, or one redirect too many, is an error", async () => {
    await expect(safeFetch(new URL(`http://first.test:${server.port}/to-file`), options())).rejects.toBeInstanceOf(UnsafeUrl);
    await expect(safeFetch(new URL(`http://first.test:${server.port}/loop`), options())).rejects.toBeInstanceOf(TooManyRedirects);
  });
});

describe("limits", () => {
  test("at most maxBytes of the body are read", async () => {
    const response = await safeFetch(new URL(`http://first.test:${server.port}/big`), options({ maxBytes: 1000 }));
    expect(response.body.length).toBe(1000);
    expect(response.truncated).toBe(true);
    expect((await safeFetch(new URL(`http://first.test:${server.port}/hello`), options())).truncated).toBe(false);
  });

  test("the time budget covers the whole fetch", async () => {
    const started = Date.now();
    await expect(safeFetch(new URL(`http://first.test:${server.port}/slow`), options({ timeoutMs: 300 }))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
