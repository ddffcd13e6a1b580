// `warren accounts create|modify` run as the real CLI (a child process) on the data directory of an
// in-process app, whose HTTP API then shows the effect. LMDB lets both processes use it at once.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runWarren } from "../helpers/cli.ts";
import { appToken, createClientApp, passwordToken, type ClientApp } from "../helpers/clients.ts";

let dir: string;
let t: TestApp;
let client: ClientApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "warren-cli-"));
  t = await startTestApp({ WARREN_DATA_DIR: dir, WARREN_REGISTRATIONS: "approval" });
  client = await createClientApp(t);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runWarren(dir, "accounts", ...args);

function printedPassword(stdout: string): string {
  const match = /^OK\nNew password: (\S+)\n$/.exec(stdout);
  if (!match) throw new Error(`unexpected output: ${JSON.stringify(stdout)}`);
  return match[1]!;
}

const me = (token: string) => t.request("/api/v1/accounts/verify_credentials", { token });

describe("accounts create", () => {
  test("creates an approved, confirmed account with a role and prints its password", async () => {
    const run = await cli("create", "root_user", "--email=root@example.com", "--confirmed", "--role=Owner");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const password = printedPassword(run.stdout);
    const token = (await passwordToken(t, client, "root_user", password)).access_token;
    const body = (await (await me(token)).json()) as Record<string, any>;
    expect(body).toMatchObject({ username: "root_user", role: { name: "Owner" }, roles: [{ name: "Owner" }] });
    expect((await t.request("/api/v1/accounts/lookup?acct=root_user")).status).toBe(200);
  });

  test("accepts --email VALUE, a lower-case role and the tootctl --approve flag", async () => {
    const run = await cli("create", "moddy", "--email", "moddy@example.com", "--role=moderator", "--approve", "--confirmed");
    expect(run.code).toBe(0);
    const token = (await passwordToken(t, client, "moddy", printedPassword(run.stdout))).access_token;
    expect(((await (await me(token)).json()) as Record<string, any>).role.name).toBe("Moderator");
  });

  test("without --confirmed the account stays hidden until confirmed", async () => {
    const run = await cli("create", "quiet", "--email=quiet@example.com");
    expect(run.code).toBe(0);
    printedPassword(run.stdout);
    expect((await t.request("/api/v1/accounts/lookup?acct=quiet")).status).toBe(404);
    expect((await cli("modify", "quiet", "--confirm")).code).toBe(0);
    expect((await t.request("/api/v1/accounts/lookup?acct=quiet")).status).toBe(200);
  });

  test("a taken name or address fails with one line on stderr", async () => {
    await cli("create", "twice", "--email=twice@example.com", "--confirmed");
    const run = await cli("create", "TWICE", "--email=other@example.com");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("Validation failed: Username has already been taken\n");
    const mail = await cli("create", "thrice", "--email=TWICE@example.com");
    expect(mail.code).toBe(1);
    expect(mail.stderr).toBe("Validation failed: Email has already been taken\n");
  });

  test("Mastodon's dev account: admin with admin@localhost, which then signs in", async () => {
    const run = await cli("create", "admin", "--email=admin@localhost", "--confirmed");
    expect(run.code).toBe(0);
    const token = (await passwordToken(t, client, "admin@localhost", printedPassword(run.stdout))).access_token;
    expect(((await (await me(token)).json()) as Record<string, any>).username).toBe("admin");
    expect((await cli("modify", "admin", "--email=root@localhost")).code).toBe(0);
  });

  test("an address that is not one bare address fails with the API's message", async () => {
    for (const email of ["<admin@example.com>", "two@at@example.com", "per%cent@example.com"]) {
      const run = await cli("create", "badmail", `--email=${email}`);
      expect({ email, code: run.code, stderr: run.stderr }).toEqual({ email, code: 1, stderr: "Validation failed: Email is invalid\n" });
    }
    const modify = await cli("modify", "root_user", "--email=<root@example.com>");
    expect(modify).toEqual({ code: 1, stdout: "", stderr: "Validation failed: Email is invalid\n" });
  });

  test("an unknown role fails", async () => {
    const run = await cli("create", "kingly", "--email=k@example.com", "--role=King");
    expect(run.code).toBe(1);
    expect(run.stderr).toStartWith("Cannot find user role with that name");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  test("usage errors exit 64", async () => {
    for (const args of [["create"], ["create", "nomail"], ["create", "x", "--email=x@example.com", "--bogus"], ["create", "a", "b", "--email=x@example.com"], ["frobnicate"], []]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stderr).toContain("usage:");
    }
  });
});

describe("accounts modify", () => {
  test("unknown users fail", async () => {
    const run = await cli("modify", "ghost", "--approve");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("No user with such username\n");
  });

  test("--approve lets a pending sign-up in", async () => {
    const app = await createClientApp(t);
    const bearer = (await appToken(t, app, "write")).access_token;
    const res = await t.request("/api/v1/accounts", {
      method: "POST",
      token: bearer,
      form: { username: "hopeful", email: "hopeful@example.com", password: "hopeful secret", agreement: "true" },
    });
    const token = ((await res.json()) as { access_token: string }).access_token;
    expect((await me(token)).status).toBe(403);
    const run = await cli("modify", "hopeful", "--approve");
    expect(run).toEqual({ code: 0, stdout: "OK\n", stderr: "" });
    expect((await me(token)).status).toBe(200);
  });

  test("--disable answers 403 to the user's tokens; --enable restores them", async () => {
    const password = printedPassword((await cli("create", "flaky", "--email=flaky@example.com", "--confirmed")).stdout);
    const token = (await passwordToken(t, client, "flaky", password)).access_token;
    // Seen once before, so the server holds this viewer in memory: another process's write must still win.
    expect((await me(token)).status).toBe(200);
    expect((await cli("modify", "flaky", "--disable")).code).toBe(0);
    const res = await me(token);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "Your login is currently disabled" });
    expect((await cli("modify", "flaky", "--enable")).code).toBe(0);
    expect((await me(token)).status).toBe(200);
    expect((await cli("modify", "flaky", "--disable", "--enable")).code).toBe(64);
  });

  test("--role changes the role and the profile badge", async () => {
    const password = printedPassword((await cli("create", "climber", "--email=climber@example.com", "--confirmed")).stdout);
    expect((await cli("modify", "climber", "--role=Admin")).code).toBe(0);
    const token = (await passwordToken(t, client, "climber", password)).access_token;
    expect(((await (await me(token)).json()) as Record<string, any>).role.name).toBe("Admin");
    const profile = (await (await t.request("/api/v1/accounts/lookup?acct=climber")).json()) as Record<string, any>;
    expect(profile.roles).toEqual([{ id: "2", name: "Admin", color: "" }]);
    expect((await cli("modify", "climber", "--role=User")).code).toBe(0);
    expect(((await (await t.request("/api/v1/accounts/lookup?acct=climber")).json()) as Record<string, any>).roles).toEqual([]);
  });

  test("--reset-password prints a new password, retires the old one and its tokens", async () => {
    const old = printedPassword((await cli("create", "forgetful", "--email=forgetful@example.com", "--confirmed")).stdout);
    const oldToken = (await passwordToken(t, client, "forgetful", old)).access_token;
    const run = await cli("modify", "forgetful", "--reset-password");
    expect(run.code).toBe(0);
    const fresh = printedPassword(run.stdout);
    expect(fresh).not.toBe(old);
    await expect(passwordToken(t, client, "forgetful", old)).rejects.toThrow();
    const token = (await passwordToken(t, client, "forgetful", fresh)).access_token;
    expect((await me(token)).status).toBe(200);
    expect((await me(oldToken)).status).toBe(401);
  });
});
