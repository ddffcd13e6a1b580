// `warren accounts cull [--dry-run]` run as the real CLI: remote accounts whose server answers 410 or 404 for
// their actor go; one whose actor answers, and one whose server does not answer at all, stay.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { getAccount } from "../../src/store/accounts.ts";
import { remoteAccount } from "../http/timelines-helpers.ts";

setDefaultTimeout(30_000);

let dir: string;
let t: TestApp;
let server: ReturnType<typeof Bun.serve>;
const asked: string[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      asked.push(path);
      if (path === "/users/gone") return new Response("gone", { status: 410 });
      if (path === "/users/missing") return new Response("not found", { status: 404 });
      return Response.json({ type: "Person", id: request.url });
    },
  });
  dir = mkdtempSync(join(tmpdir(), "warren-cull-"));
  t = await startTestApp({ WARREN_DATA_DIR: dir });
  // The guard lets the CLI reach this machine only when private addresses are allowed.
  process.env.WARREN_ALLOW_PRIVATE_ADDRESSES = "true";
  const host = `127.0.0.1:${server.port}`;
  for (const name of ["gone", "missing", "alive"]) {
    const account = await remoteAccount(t, name, host);
    // remoteAccount spells https; this server speaks http.
    const uri = `http://${host}/users/${name}`;
    await t.deps.store.write(() => {
      t.deps.store.db.accounts.put(account.id, { ...account, uri });
      t.deps.store.db.accountsByUri.remove(account.uri);
      t.deps.store.db.accountsByUri.put(uri, account.id);
    });
    ids[name] = account.id;
  }
  ids.unreachable = (await remoteAccount(t, "away", "127.0.0.1:9")).id;
});
afterAll(async () => {
  delete process.env.WARREN_ALLOW_PRIVATE_ADDRESSES;
  await t.close();
  server.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("--dry-run names the gone accounts and removes none", async () => {
  const run = await runWarren(dir, "accounts", "cull", "--dry-run");
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(`gone@127.0.0.1:${server.port}\nmissing@127.0.0.1:${server.port}\nOK, would remove 2 of 4 remote accounts; 1 did not answer and are kept (dry run)\n`);
  expect(asked).toContain("/users/alive");
  t.deps.store.freshSnapshot();
  expect(getAccount(t.deps.store, ids.gone!)!.dataDeletedAt ?? null).toBeNull();
});

test("cull removes the accounts whose server says they are gone, once", async () => {
  const run = await runWarren(dir, "accounts", "cull");
  expect(run.code).toBe(0);
  expect(run.stdout).toEndWith("OK, removed 2 of 4 remote accounts; 1 did not answer and are kept\n");
  t.deps.store.freshSnapshot();
  for (const name of ["gone", "missing"]) expect(getAccount(t.deps.store, ids[name]!)!.dataDeletedAt).toBeNumber();
  for (const name of ["alive", "unreachable"]) expect(getAccount(t.deps.store, ids[name]!)!.dataDeletedAt ?? null).toBeNull();
  expect(((await (await t.request(`/api/v1/accounts/${ids.gone}`)).json()) as { suspended?: boolean }).suspended).toBe(true);
  expect(((await (await t.request(`/api/v1/accounts/${ids.alive}`)).json()) as { suspended?: boolean }).suspended).toBeUndefined();
  expect((await runWarren(dir, "accounts", "cull")).stdout).toBe("OK, removed 0 of 2 remote accounts; 1 did not answer and are kept\n");
});
