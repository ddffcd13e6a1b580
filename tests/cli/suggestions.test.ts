// `warren suggestions list|add|remove` run as the real CLI (a child process) on the data directory of a
// running test app, whose users then see the staff picks through GET /api/v2/suggestions.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let viewer: Awaited<ReturnType<typeof signedInUser>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestApp();
  viewer = await signedInUser(t, "viewer");
  for (const name of ["alice", "bob"]) ids[name] = (await createUser(t, name)).id;
  const shy = await signedInUser(t, "shy2");
  ids.shy2 = shy.id;
  const res = await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: shy.token, json: { discoverable: false } });
  expect(res.status).toBe(200);
});
afterAll(() => t.close());

const cli = (...args: string[]) => runWarren(t.dir, "suggestions", ...args);

async function suggested(): Promise<[string, string[]][]> {
  const res = await t.request("/api/v2/suggestions", { token: viewer.token });
  expect(res.status).toBe(200);
  return ((await res.json()) as any[]).map((s) => [s.account.username, s.sources]);
}

describe("warren suggestions", () => {
  test("add picks accounts; they are suggested to everyone first, in the order added", async () => {
    expect(await cli("add", "bob")).toEqual({ code: 0, stdout: `OK\nbob\t${ids.bob}\n`, stderr: "" });
    expect(await cli("add", "@alice")).toEqual({ code: 0, stdout: `OK\nalice\t${ids.alice}\n`, stderr: "" });
    expect(await suggested()).toEqual([
      ["bob", ["featured"]],
      ["alice", ["featured"]],
    ]);
  });

  test("adding a pick again keeps its place", async () => {
    expect(await cli("add", "bob")).toEqual({ code: 0, stdout: `OK (already a staff pick)\nbob\t${ids.bob}\n`, stderr: "" });
    expect((await suggested()).map(([name]) => name)).toEqual(["bob", "alice"]);
  });

  test("list shows the picks, and why a pick is shown to no one", async () => {
    expect((await cli("add", "shy2")).stdout).toBe(`OK\nshy2\t${ids.shy2}\t(not suggested: not discoverable)\n`);
    expect(await cli("list")).toEqual({
      code: 0,
      stdout: `bob\t${ids.bob}\nalice\t${ids.alice}\nshy2\t${ids.shy2}\t(not suggested: not discoverable)\n`,
      stderr: "",
    });
    expect((await suggested()).map(([name]) => name)).toEqual(["bob", "alice"]);
  });

  test("remove takes a pick away; removing it again or an unknown account fails (exit 1)", async () => {
    expect(await cli("remove", "bob")).toEqual({ code: 0, stdout: "OK\n", stderr: "" });
    expect((await suggested()).map(([name]) => name)).toEqual(["alice"]);
    expect(await cli("remove", "bob")).toEqual({ code: 1, stdout: "", stderr: "bob is not a staff pick\n" });
    expect(await cli("add", "nobody")).toEqual({ code: 1, stdout: "", stderr: "No account nobody\n" });
    expect((await cli("list")).stdout).toBe(`alice\t${ids.alice}\nshy2\t${ids.shy2}\t(not suggested: not discoverable)\n`);
  });

  test("wrong usage exits 64 with the usage and changes nothing", async () => {
    for (const args of [[], ["add"], ["add", "alice", "bob"], ["remove"], ["list", "all"], ["feature", "alice"], ["add", "--all"]]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("usage:\n  warren suggestions list\n");
    }
    expect((await suggested()).map(([name]) => name)).toEqual(["alice"]);
  });
});
