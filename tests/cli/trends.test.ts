// `warren trends refresh|auto-approve|list` run as the real CLI (a child process) on the data directory of a
// running test app, whose public trends then follow.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(60_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  for (const name of ["ta", "tb"]) {
    const user = await signedInUser(t, name);
    const res = await t.request("/api/v1/statuses", { method: "POST", token: user.token, json: { status: "#clitrend is here" } });
    expect(res.status).toBe(200);
  }
  await t.deps.jobs.drain();
});
afterAll(() => t.close());

const cli = (...args: string[]) => runWarren(t.dir, "trends", ...args);
const trendingTags = async () => ((await (await t.request("/api/v1/trends/tags")).json()) as { name: string }[]).map((tag) => tag.name);

describe("warren trends", () => {
  test("refresh computes, list shows candidates, auto-approve lets them trend", async () => {
    expect((await cli("refresh")).code).toBe(0);
    const listed = await cli("list");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^tag\t#clitrend\t[\d.]+\tpending or rejected$/m);
    expect(await trendingTags()).toEqual([]);
    expect((await cli("auto-approve")).stdout).toBe("auto-approve off\n");
    expect((await cli("auto-approve", "on")).stdout).toBe("auto-approve on\n");
    expect(await trendingTags()).toEqual(["clitrend"]);
    expect((await cli("list")).stdout).toMatch(/^tag\t#clitrend\t[\d.]+\tlisted$/m);
    expect((await cli("auto-approve", "off")).stdout).toBe("auto-approve off\n");
    expect(await trendingTags()).toEqual([]);
  });

  test("usage errors exit 64", async () => {
    expect((await cli("auto-approve", "maybe")).code).toBe(64);
    expect((await cli("refresh", "now")).code).toBe(64);
    expect((await cli("nonsense")).code).toBe(64);
  });
});
