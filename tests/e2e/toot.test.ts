// The real Mastodon CLI `toot` (Debian's package, 0.34) against a listening Warren: login, whois, follow,
// mute, block (all of which find the account by name through /api/v2/search?type=accounts&resolve=true),
// post and timeline. Each command's exit code and output are checked, and its effect through the HTTP API.
// toot runs with HOME and XDG_CONFIG_HOME in a temporary directory, so the user's own config is never read
// or written. Without the `toot` binary on PATH the file registers one skipped test saying so (CI installs it).
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { runCommand, type CommandRun } from "../helpers/cli.ts";
import { createUser } from "../helpers/clients.ts";
import { stopListeningApp } from "../helpers/streaming.ts";

setDefaultTimeout(60_000);

const tootPath = Bun.which("toot");

if (tootPath === null) {
  test.skip("toot e2e: skipped, the toot CLI is not installed (CI installs it: apt-get install toot)", () => {});
} else {
  const toot = tootPath;
  let t: TestApp;
  /** `http://127.0.0.1:<port>`, also the app's WARREN_URL, so its domain is the instance name toot uses */
  let base: string;
  /** `127.0.0.1:<port>`: toot's instance name */
  let instance: string;
  let home: string;
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  /** alice's token, as toot saved it at login */
  let token = "";

  /** A free local port: the app's URL must name it before the app starts. */
  function freePort(): number {
    const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = probe.port!;
    probe.stop(true);
    return port;
  }

  const env = () => ({
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    // No proxy may stand between toot and the local server.
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
  });

  /** Runs `toot <args>` (stdout is a pipe: no colours, no pager, no prompts). */
  const run = (...args: string[]): Promise<CommandRun> => runCommand([toot, ...args], { env: env() });

  /** Runs toot and expects it to succeed; the output is given back for further checks. */
  async function ok(...args: string[]): Promise<string> {
    const result = await run(...args);
    if (result.code !== 0) throw new Error(`toot ${args.join(" ")} exited with ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
    expect(result.stderr).toBe("");
    return result.stdout;
  }

  async function relationship(id: string) {
    const res = await fetch(`${base}/api/v1/accounts/relationships?id[]=${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const [rel] = (await res.json()) as { id: string; following: boolean; muting: boolean; blocking: boolean }[];
    return rel!;
  }

  beforeAll(async () => {
    const port = freePort();
    instance = `127.0.0.1:${port}`;
    base = `http://${instance}`;
    t = await startTestApp({ WARREN_URL: base });
    t.app.listen({ port, hostname: "127.0.0.1" });
    home = mkdtempSync(join(tmpdir(), "warren-toot-"));
    alice = await createUser(t, "alice");
    bob = await createUser(t, "bob");
  });

  afterAll(async () => {
    await stopListeningApp(t);
    rmSync(home, { recursive: true, force: true });
  });

  describe("toot against Warren", () => {
    test("login_cli: registers the app and signs in by e-mail and password (read from stdin)", async () => {
      const child = Bun.spawn([toot, "login_cli", "--disable-https", "--instance", instance, "--email", alice.email], {
        env: env(),
        stdin: new Blob([`${alice.password}\n`]),
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      if (code !== 0) throw new Error(`toot login_cli exited with ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
      expect(stdout).toContain(`Found instance`);
      expect(stdout).toContain("Application tokens saved.");
      expect(stdout).toContain("Successfully logged in.");
      // The config landed in the temporary home, with a token that works.
      const config = JSON.parse(readFileSync(join(home, ".config", "toot", "config.json"), "utf8"));
      expect(config.active_user).toBe(`alice@${instance}`);
      expect(config.apps[instance]).toMatchObject({ instance, base_url: base });
      token = config.users[`alice@${instance}`].access_token;
      const me = await fetch(`${base}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ id: alice.id, username: "alice", acct: "alice" });
    });

    test("whoami", async () => {
      expect(await ok("whoami")).toStartWith("@alice ");
    });

    test("whois finds the account by name", async () => {
      const out = await ok("whois", "bob");
      expect(out).toStartWith("@bob ");
      expect(out).toContain(`ID: ${bob.id}\n`);
      expect(out).toContain(`${base}/@bob`);
      // With a leading @ and with the instance's domain, as toot users type it.
      expect(await ok("whois", "@bob")).toContain(`ID: ${bob.id}\n`);
      expect(await ok("whois", `bob@${instance}`)).toContain(`ID: ${bob.id}\n`);
    });

    test("whois on an unknown name fails with 'Account not found'", async () => {
      const result = await run("whois", "nobody");
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("Account not found");
    });

    test("follow, then unfollow", async () => {
      expect(await ok("follow", "bob")).toContain("You are now following bob");
      expect(await relationship(bob.id)).toMatchObject({ following: true });
      expect(await ok("unfollow", "bob")).toContain("You are no longer following bob");
      expect(await relationship(bob.id)).toMatchObject({ following: false });
    });

    test("mute, then unmute", async () => {
      expect(await ok("mute", "bob")).toContain("You have muted bob");
      expect(await relationship(bob.id)).toMatchObject({ muting: true });
      expect(await ok("unmute", "bob")).toContain("bob is no longer muted");
      expect(await relationship(bob.id)).toMatchObject({ muting: false });
    });

    test("block, then unblock", async () => {
      expect(await ok("block", "bob")).toContain("You are now blocking bob");
      expect(await relationship(bob.id)).toMatchObject({ blocking: true });
      expect(await ok("unblock", "bob")).toContain("bob is no longer blocked");
      expect(await relationship(bob.id)).toMatchObject({ blocking: false });
    });

    test("post, then see it in the home timeline", async () => {
      const out = await ok("post", "hello from toot");
      const match = out.match(/Toot posted: (\S+)/);
      expect(match).not.toBeNull();
      const url = match![1]!;
      expect(url).toStartWith(`${base}/@alice/`);
      const id = url.split("/").at(-1)!;
      const res = await fetch(`${base}/api/v1/statuses/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id, content: "<p>hello from toot</p>", account: { id: alice.id } });
      await t.deps.jobs.drain();
      const timeline = await ok("timeline");
      expect(timeline).toContain("hello from toot");
      expect(timeline).toContain("@alice");
    });
  });
}
