// `warren settings …` run as the real CLI (a child process) on a data directory that no app has open, then an
// app started on that directory shows the effect through HTTP.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE, startTestApp } from "../helpers/app.ts";

setDefaultTimeout(30_000);

const ROOT = join(import.meta.dir, "../..");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "warren-settings-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]) {
  const child = Bun.spawn([process.execPath, "src/main.ts", "settings", ...args], {
    cwd: ROOT,
    env: { ...process.env, WARREN_DATA_DIR: dir, WARREN_URL: BASE, WARREN_LOG: "off" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

/** Starts an app on the CLI's data directory, runs `check` against it, and closes it again. */
async function withApp(env: Record<string, string>, check: (get: (path: string) => Promise<any>) => Promise<void>) {
  const t = await startTestApp({ ...env, WARREN_DATA_DIR: dir });
  try {
    await check(async (path) => (await t.request(path)).json());
  } finally {
    await t.close();
  }
}

describe("settings registrations", () => {
  test("close wins over WARREN_REGISTRATIONS=open", async () => {
    const run = await cli("registrations", "close");
    expect(run).toEqual({ code: 0, stdout: "OK\nRegistrations: closed\n", stderr: "" });
    await withApp({ WARREN_REGISTRATIONS: "open" }, async (get) => {
      const v2 = await get("/api/v2/instance");
      expect(v2.registrations).toMatchObject({ enabled: false, approval_required: false });
      const v1 = await get("/api/v1/instance");
      expect([v1.registrations, v1.approval_required]).toEqual([false, false]);
      expect((await get("/nodeinfo/2.0")).openRegistrations).toBe(false);
    });
  });

  test("approved means sign-ups wait for approval", async () => {
    expect((await cli("registrations", "approved")).stdout).toBe("OK\nRegistrations: approval\n");
    await withApp({ WARREN_REGISTRATIONS: "closed" }, async (get) => {
      expect((await get("/api/v2/instance")).registrations).toMatchObject({ enabled: true, approval_required: true });
      expect((await get("/api/v1/instance")).approval_required).toBe(true);
      expect((await get("/nodeinfo/2.0")).openRegistrations).toBe(true);
    });
  });

  test("open", async () => {
    expect((await cli("registrations", "open")).stdout).toBe("OK\nRegistrations: open\n");
    await withApp({ WARREN_REGISTRATIONS: "closed" }, async (get) => {
      expect((await get("/api/v2/instance")).registrations).toMatchObject({ enabled: true, approval_required: false });
    });
  });

  test("a wrong word, a missing word or extra words are usage errors (64) and change nothing", async () => {
    for (const args of [["registrations", "closed"], ["registrations"], ["registrations", "open", "now"], ["registrations", "toString"]]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("usage:\n  warren settings registrations open|approved|close");
    }
    await withApp({}, async (get) => {
      expect((await get("/api/v2/instance")).registrations.enabled).toBe(true);
    });
  });

  test("no or unknown subcommand is a usage error", async () => {
    const none = await cli();
    expect([none.code, none.stdout]).toEqual([64, ""]);
    expect(none.stderr).toStartWith("usage:");
    const unknown = await cli("colours");
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toStartWith("unknown settings command: colours\nusage:");
  });
});

describe("settings rules", () => {
  test("add, list, remove round trip shown by /api/v1/instance/rules", async () => {
    const first = await cli("rules", "add", "Be kind", "--hint=Assume good faith.");
    expect(first.code).toBe(0);
    const [, firstLine] = first.stdout.split("\n");
    const firstId = firstLine!.split("\t")[0]!;
    expect(first.stdout).toBe(`OK\n${firstId}\tBe kind\tAssume good faith.\n`);
    expect(firstId).toMatch(/^[1-9]\d*$/);
    const second = await cli("rules", "add", "No spam");
    expect(second.code).toBe(0);
    const secondId = second.stdout.split("\n")[1]!.split("\t")[0]!;

    expect((await cli("rules", "list")).stdout).toBe(`${firstId}\tBe kind\tAssume good faith.\n${secondId}\tNo spam\n`);
    await withApp({}, async (get) => {
      expect(await get("/api/v1/instance/rules")).toEqual([
        { id: firstId, text: "Be kind", hint: "Assume good faith.", translations: {} },
        { id: secondId, text: "No spam", hint: "", translations: {} },
      ]);
      expect((await get("/api/v2/instance")).rules.map((r: { id: string }) => r.id)).toEqual([firstId, secondId]);
    });

    expect(await cli("rules", "remove", firstId)).toEqual({ code: 0, stdout: "OK\n", stderr: "" });
    expect((await cli("rules", "list")).stdout).toBe(`${secondId}\tNo spam\n`);
    await withApp({}, async (get) => {
      expect((await get("/api/v1/instance/rules")).map((r: { id: string }) => r.id)).toEqual([secondId]);
    });
    expect(await cli("rules", "remove", secondId)).toMatchObject({ code: 0 });
    expect((await cli("rules", "list")).stdout).toBe("");
  });

  test("invalid rules fail with the validation message (exit 1)", async () => {
    expect(await cli("rules", "add", "   ")).toEqual({ code: 1, stdout: "", stderr: "Validation failed: Text can't be blank\n" });
    expect(await cli("rules", "add", "x".repeat(301))).toEqual({
      code: 1,
      stdout: "",
      stderr: "Validation failed: Text is too long (maximum is 300 characters)\n",
    });
    expect(await cli("rules", "add", "x".repeat(300))).toMatchObject({ code: 0 });
    expect(await cli("rules", "remove", "12345")).toEqual({ code: 1, stdout: "", stderr: "No rule with id 12345\n" });
    expect(await cli("rules", "remove", "not-an-id")).toEqual({ code: 1, stdout: "", stderr: "No rule with id not-an-id\n" });
  });

  test("wrong shapes are usage errors", async () => {
    for (const args of [["rules"], ["rules", "add"], ["rules", "add", "a", "b"], ["rules", "add", "a", "--colour=red"], ["rules", "remove"], ["rules", "list", "x"], ["rules", "purge"]]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stderr).toContain("usage:");
    }
  });
});

describe("settings description", () => {
  test("sets the description shown by the instance, extended description and nodeinfo", async () => {
    expect(await cli("description")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await cli("description", "Rabbits welcome.")).toEqual({ code: 0, stdout: "OK\n", stderr: "" });
    expect((await cli("description")).stdout).toBe("Rabbits welcome.\n");
    await withApp({}, async (get) => {
      expect((await get("/api/v2/instance")).description).toBe("Rabbits welcome.");
      expect((await get("/api/v1/instance/extended_description")).content).toBe("<p>Rabbits welcome.</p>");
      expect((await get("/nodeinfo/2.0")).metadata.nodeDescription).toBe("Rabbits welcome.");
    });
  });
});

describe("settings timeline-preview", () => {
  test("off wins over WARREN_TIMELINE_PREVIEW=true: visitors get no public timeline; on restores it", async () => {
    expect(await cli("timeline-preview")).toEqual({ code: 0, stdout: "Timeline preview: on\n", stderr: "" });
    expect(await cli("timeline-preview", "off")).toEqual({ code: 0, stdout: "OK\nTimeline preview: off\n", stderr: "" });
    await withApp({ WARREN_TIMELINE_PREVIEW: "true" }, async (get) => {
      expect((await get("/api/v1/timelines/public")).error).toBe("This method requires an authenticated user");
    });
    expect((await cli("timeline-preview", "on")).code).toBe(0);
    await withApp({ WARREN_TIMELINE_PREVIEW: "false" }, async (get) => {
      expect(await get("/api/v1/timelines/public")).toEqual([]);
    });
    for (const args of [["timeline-preview", "maybe"], ["timeline-preview", "on", "off"]]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
      expect(run.stderr).toContain("usage:");
    }
  });
});

describe("settings feed-access", () => {
  test("lists, shows and sets Mastodon's four feed settings; the instance and the timelines follow them", async () => {
    expect((await cli("timeline-preview", "on")).code).toBe(0);
    const listed = await cli("feed-access");
    expect(listed.stdout).toBe(
      "local_live_feed_access\tpublic\nremote_live_feed_access\tpublic\nlocal_topic_feed_access\tpublic\nremote_topic_feed_access\tpublic\n",
    );
    expect((await cli("feed-access", "remote-live-feed-access", "authenticated")).stdout).toContain("OK\n");
    expect(await cli("feed-access", "remote_live_feed_access")).toEqual({ code: 0, stdout: "authenticated\n", stderr: "" });
    expect((await cli("feed-access", "remote_topic_feed_access", "disabled")).code).toBe(0);
    await withApp({}, async (get) => {
      const access = (await get("/api/v2/instance")).configuration.timelines_access;
      expect(access).toEqual({
        live_feeds: { local: "public", remote: "authenticated" },
        hashtag_feeds: { local: "public", remote: "disabled" },
        trending_link_feeds: { local: "public", remote: "disabled" },
      });
      expect((await get("/api/v1/timelines/public")).error).toBe("This method requires an authenticated user");
      expect((await get("/api/v1/timelines/public?remote=true")).error).toBe("This method requires an authenticated user");
      expect(await get("/api/v1/timelines/public?local=true")).toEqual([]);
    });
    for (const args of [["feed-access", "nope", "public"], ["feed-access", "local_live_feed_access", "maybe"], ["feed-access", "local_topic_feed_access", "disabled"]]) {
      const run = await cli(...args);
      expect(run.code).toBe(64);
    }
  });
});
