// `warren reports list [--unresolved]` run as the real CLI (a child process) on the data directory of a
// running test app whose users filed the reports through the API and whose moderator resolved one.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { newUser } from "../http/statuses-helpers.ts";
import { admin, postStatus, reported, staffUser } from "../http/reports-helpers.ts";

setDefaultTimeout(60_000);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const cli = (...args: string[]) => runWarren(t.dir, "reports", ...args);

describe("warren reports list", () => {
  test("prints nothing but the count on a new server", async () => {
    expect(await cli("list")).toEqual({ code: 0, stdout: "", stderr: "0 reports\n" });
  });

  test("every report newest first, one line each; --unresolved leaves out the resolved ones", async () => {
    const [reporter, target] = [await newUser(t, "cr"), await newUser(t, "ct")];
    const status = await postStatus(t, target, "bad post");
    const first = await reported(t, reporter, { account_id: target.id, category: "spam", comment: "first\nof two" });
    const second = await reported(t, reporter, { account_id: target.id, status_ids: [status.id], comment: "x".repeat(200) });
    const moderator = await staffUser(t, "Moderator");
    expect((await admin(t, "POST", `/${first.id}/resolve`, moderator.token)).status).toBe(200);

    const all = await cli("list");
    expect(all.code).toBe(0);
    expect(all.stderr).toBe("2 reports\n");
    const lines = all.stdout.trimEnd().split("\n").map((line) => line.split("\t"));
    expect(lines).toEqual([
      [second.id, second.created_at, "open", "other", reporter.username, target.username, "statuses=1", `${"x".repeat(79)}…`],
      [first.id, first.created_at, "resolved", "spam", reporter.username, target.username, "statuses=0", "first of two"],
    ]);

    const open = await cli("list", "--unresolved");
    expect(open.code).toBe(0);
    expect(open.stderr).toBe("1 report\n");
    expect(open.stdout.split("\t")[0]).toBe(second.id);
    expect(open.stdout.split("\n").length).toBe(2);
  });

  test("wrong words are usage errors (exit 64)", async () => {
    for (const args of [["list", "extra"], ["list", "--resolved"], ["purge"], []]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stderr).toContain("warren reports list [--unresolved]");
    }
  });
});
