// `warren accounts approve|reject|delete` and `warren domains block|unblock|list`, run as the real CLI (a child
// process) on the data directory of an in-process app whose admin API then shows the effect.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { createUser } from "../helpers/clients.ts";
import { api, staffUser, type Staffer } from "../http/admin-helpers.ts";
import { follow, newUser, postStatus } from "../http/timelines-helpers.ts";

setDefaultTimeout(60_000);

let t: TestApp;
let admin: Staffer;

beforeAll(async () => {
  t = await startTestApp();
  admin = await staffUser(t, "boss", "Admin");
});
afterAll(() => t.close());

const accounts = (...args: string[]) => runWarren(t.dir, "accounts", ...args);
const domains = (...args: string[]) => runWarren(t.dir, "domains", ...args);
const adminView = (id: string) => api(t, "GET", `/api/v1/admin/accounts/${id}`, admin.token);

describe("warren accounts approve|reject|delete", () => {
  test("approve USERNAME, and again (nothing to do)", async () => {
    const pending = await createUser(t, "pending1", { approved: false });
    expect(await accounts("approve", "pending1")).toEqual({ stdout: "OK\n", stderr: "", code: 0 });
    expect((await adminView(pending.id)).body.approved).toBe(true);
    expect((await accounts("approve", "pending1")).code).toBe(0);
    expect(await accounts("approve", "nobody")).toMatchObject({ code: 1, stderr: "No user with such username\n" });
    expect((await accounts("approve")).code).toBe(64);
  });

  test("approve --all and reject --all take every pending sign-up", async () => {
    const a = await createUser(t, "pending2", { approved: false });
    const b = await createUser(t, "pending3", { approved: false });
    expect((await accounts("approve", "--all")).code).toBe(0);
    expect((await adminView(a.id)).body.approved).toBe(true);
    expect((await adminView(b.id)).body.approved).toBe(true);
    const c = await createUser(t, "pending4", { approved: false });
    expect((await accounts("reject", "--all")).code).toBe(0);
    expect((await adminView(c.id)).status).toBe(404);
    expect((await adminView(a.id)).status).toBe(200);
  });

  test("reject USERNAME deletes a pending sign-up; an approved user is refused", async () => {
    const pending = await createUser(t, "pending5", { approved: false });
    expect(await accounts("reject", "pending5")).toEqual({ stdout: "OK\n", stderr: "", code: 0 });
    expect((await adminView(pending.id)).status).toBe(404);
    const run = await accounts("reject", "boss");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("boss is not waiting for approval");
    expect((await adminView(admin.id)).status).toBe(200);
  });

  test("delete USERNAME removes the data at once; the account stays, suspended, its name taken", async () => {
    const fan = await newUser(t, "fan");
    const gone = await newUser(t, "gone");
    await follow(t, fan, gone);
    const status = await postStatus(t, gone, "bye");
    expect(await accounts("delete", gone.username)).toEqual({ stdout: "OK\n", stderr: "", code: 0 });
    await t.deps.jobs.drain();
    expect((await adminView(gone.id)).body).toMatchObject({ suspended: true, disabled: true, account: { statuses_count: 0, followers_count: 0 } });
    expect((await api(t, "GET", `/api/v1/statuses/${status.id}`, admin.token)).status).toBe(404);
    expect((await api(t, "GET", `/api/v1/accounts/${fan.id}`, fan.token)).body.following_count).toBe(0);
    expect((await api(t, "GET", "/api/v1/accounts/verify_credentials", gone.token)).status).toBe(401);
    await expect(createUser(t, gone.username)).rejects.toThrow();
    expect((await accounts("delete", "nobody")).code).toBe(1);
  });
});

describe("warren domains block|unblock|list", () => {
  test("block with options, shown by the API; a covered domain is refused; unblock", async () => {
    const run = await domains("block", "Bad.Example", "--severity=suspend", "--reject-media", "--public-comment=spam source");
    expect(run).toEqual({ stdout: "OK\nbad.example\tsuspend\treject-media\n", stderr: "", code: 0 });
    const listed = (await api(t, "GET", "/api/v1/admin/domain_blocks", admin.token)).body;
    expect(listed).toEqual([expect.objectContaining({ domain: "bad.example", severity: "suspend", reject_media: true, public_comment: "spam source" })]);
    const again = await domains("block", "sub.bad.example");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("You have already imposed stricter limits on bad.example.");
    expect((await domains("block", "x.example", "--severity=harsh")).code).toBe(64);
    expect((await domains("block")).code).toBe(64);
    expect(await domains("block", "quiet.example")).toMatchObject({ code: 0, stdout: "OK\nquiet.example\tsilence\n" });
    expect(await domains("list")).toEqual({ stdout: "bad.example\tsuspend\treject-media\nquiet.example\tsilence\n", stderr: "", code: 0 });
    expect(await domains("unblock", "bad.example")).toEqual({ stdout: "OK\n", stderr: "", code: 0 });
    expect((await api(t, "GET", "/api/v1/admin/domain_blocks", admin.token)).body.map((b: any) => b.domain)).toEqual(["quiet.example"]);
    expect(await domains("unblock", "bad.example")).toMatchObject({ code: 1, stderr: "No domain block for bad.example\n" });
  });
});
