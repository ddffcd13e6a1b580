// Link cards through the outgoing-fetch guard, with the card.fetch job on worker threads as users run it:
// a link whose host NAME resolves to a non-public address (this machine's own name), or that spells a
// loopback address in an IPv6 form, gets no card unless WARREN_ALLOW_PRIVATE_ADDRESSES is on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { isPrivateAddress } from "../../src/lib/private-address.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { get, newUser, postStatus } from "./statuses-helpers.ts";

let strict: TestApp;
let open: TestApp;
let server: ReturnType<typeof Bun.serve>;
let requests = 0;

beforeAll(async () => {
  server = Bun.serve({
    // Every interface: the machine's name may resolve to 127.0.1.1 or a container address.
    hostname: "0.0.0.0",
    port: 0,
    fetch() {
      requests++;
      return new Response("<html><head><title>Internal page</title></head></html>", { headers: { "content-type": "text/html" } });
    },
  });
  strict = await startTestApp({ WARREN_JOB_WORKERS: "2" });
  open = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_ALLOW_PRIVATE_ADDRESSES: "true" });
}, 60_000);
afterAll(async () => {
  await strict.close();
  await open.close();
  server.stop(true);
});

async function cardFor(t: TestApp, link: string) {
  const user = await newUser(t, "guard");
  const status = await postStatus(t, user, `see ${link}`);
  await t.deps.jobs.drain();
  return (await get(t, `/api/v1/statuses/${status.id}/card`)).body;
}

describe("link cards and private addresses", () => {
  test("a host name that resolves to a private address: a card only when private addresses are allowed", async () => {
    const addresses = (await Bun.dns.lookup(hostname())).map((entry) => entry.address);
    expect(addresses.every(isPrivateAddress)).toBe(true);
    const link = `http://${hostname()}:${server.port}/page`;
    expect(await cardFor(open, link)).toMatchObject({ title: "Internal page" });
    const before = requests;
    expect(await cardFor(strict, link)).toEqual({});
    expect(requests).toBe(before);
  }, 20_000);

  test("IPv4-mapped, IPv4-compatible, NAT64 and 6to4 spellings of loopback get no card and no request", async () => {
    // The mapped form does reach this server when private addresses are allowed.
    expect(await cardFor(open, `http://[::ffff:127.0.0.1]:${server.port}/page`)).toMatchObject({ title: "Internal page" });
    const before = requests;
    for (const host of ["[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[::127.0.0.1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]"]) {
      expect(await cardFor(strict, `http://${host}:${server.port}/page`)).toEqual({});
    }
    expect(requests).toBe(before);
  }, 20_000);
});
