// Upload intake on a real server process (bench/lib/upload-flood.ts speaks raw HTTP): a missing or bad token
// is 401 before the body is read, and the connection is closed (a missing or dead session on the import
// form: the redirect to sign in, as early); an oversize chunked upload is 413 as soon
// as it passes the limit; parallel 100 MiB uploads are streamed to disk, so the server's memory grows
// little and unrelated requests keep answering; no temporary file outlives its request.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BenchClient } from "../../bench/lib/client.ts";
import { startWarren, type Warren } from "../../bench/lib/servers.ts";
import { MiB, rawUpload, uploadFlood } from "../../bench/lib/upload-flood.ts";

setDefaultTimeout(60_000);

let warren: Warren;
let port: number;
let token: string;
let dataDir: string;

beforeAll(async () => {
  warren = await startWarren();
  port = Number(new URL(warren.url).port);
  token = (await new BenchClient(warren).user("uploader")).token;
  const out = await warren.script(join(import.meta.dir, "../fixtures/print-data-dir.ts"));
  dataDir = out.stdout.trim();
});
afterAll(() => warren.stop());

const tempFiles = () => {
  const dir = join(dataDir, "tmp", "uploads");
  return existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).map((e) => e.name) : [];
};

describe("before the body", () => {
  for (const [label, auth] of [["no token", undefined], ["a bad token", "not-a-token"]] as const) {
    for (const [method, path] of [["POST", "/api/v2/media"], ["POST", "/api/v1/media"], ["PUT", "/api/v1/media/1"]]) {
      test(`${label} on ${method} ${path}: 401 at once to a client that sent 1 KB of a 100 MiB body and stalls; the connection is closed`, async () => {
        const result = await rawUpload({ port, method, path, token: auth, fileBytes: 100 * MiB, stallAfter: 1024 }, 10_000);
        expect(result.status).toBe(401);
        expect(result.answeredMs).toBeLessThan(1_000);
        expect(result.closedByServer).toBe(true);
      });
    }
  }
});

describe("/settings/import (a web form, session cookie): refused before the body without a live session", () => {
  // A body the form's limit (2 MiB + 64 KiB) lets in, by length, and a 100 MiB chunked one.
  const bodies = [["2 MiB", { fileBytes: 2 * MiB }], ["100 MiB chunked", { fileBytes: 100 * MiB, chunked: true }]] as const;
  const sessions = [["no session", []], ["a bad session cookie", ["Cookie: warren_session=not-a-session"]]] as const;
  for (const [label, headers] of sessions) {
    for (const [size, body] of bodies) {
      test(`${label}, ${size}: to sign in at once, to a client that sent 1 KB and stalls; the connection is closed`, async () => {
        const result = await rawUpload({ port, path: "/settings/import", headers: [...headers], ...body, stallAfter: 1024 }, 10_000);
        expect(result.status).toBe(303);
        expect(result.head).toMatch(/^location: \/auth\/sign_in\r?$/im);
        expect(result.answeredMs).toBeLessThan(1_000);
        expect(result.closedByServer).toBe(true);
      });
    }
  }

  test("50 parallel clients with no session, each sending 1 MiB of a 2 MiB body and stalling: all refused at once, RSS grows < 30 MB", async () => {
    const flood = await uploadFlood(warren.pid, warren.url, 50, { port, path: "/settings/import", fileBytes: 2 * MiB, stallAfter: MiB });
    expect(flood.statuses).toEqual(Array(50).fill(303));
    expect(flood.ms).toBeLessThan(3_000);
    expect(flood.rssPeakMb - flood.rssBeforeMb).toBeLessThan(30);
    expect(flood.slowestUnrelatedMs).toBeLessThan(1_000);
    expect(tempFiles()).toEqual([]);
  });
});

test("an oversize chunked upload with a token is 413 once it passes the limit, and leaves no file", async () => {
  // The limit is the largest video, a thumbnail and 1 MiB of fields: 116 MiB. The client stops at 120 MiB,
  // so that the answer is not lost to the reset a closed connection gives a client still sending.
  const result = await rawUpload({ port, token, fileBytes: 200 * MiB, chunked: true, stallAfter: 120 * MiB }, 10_000);
  expect(result.status).toBe(413);
  expect(result.answeredMs).toBeLessThan(5_000);
  expect(result.closedByServer).toBe(true);
  expect(tempFiles()).toEqual([]);
});

test("three parallel 100 MiB uploads: RSS grows < 300 MB, GET /api/v1/instance answers < 1 s meanwhile, no file left", async () => {
  // Each is read whole to a temporary file, then refused by the 99 MB video limit (422).
  const flood = await uploadFlood(warren.pid, warren.url, 3, { port, token, fileBytes: 100 * MiB });
  expect(flood.statuses).toEqual([422, 422, 422]);
  expect(flood.rssPeakMb - flood.rssBeforeMb).toBeLessThan(300);
  expect(flood.slowestUnrelatedMs).toBeLessThan(1_000);
  expect(tempFiles()).toEqual([]);
});
