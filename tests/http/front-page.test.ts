// The front page (/) as a browser gets it, and the timeline preview switch it shares with the public and
// hashtag timelines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { addRule } from "../../src/domain/instance/rules.ts";
import { setInstanceDescription } from "../../src/domain/instance/info.ts";
import { setTimelinePreview } from "../../src/domain/instance/timeline-preview.ts";
import { newUser, post, postStatus, type User } from "./statuses-helpers.ts";

const page = async (t: TestApp, init: RequestInit = {}) => {
  const res = await t.request("/", { ...init, headers: { accept: "text/html", ...(init.headers as Record<string, string>) } });
  return { res, html: init.method === "HEAD" ? "" : await res.text() };
};

describe("an open server with posts", () => {
  let t: TestApp;
  let alice: User;

  beforeAll(async () => {
    t = await startTestApp({ WARREN_REGISTRATIONS: "open", WARREN_TITLE: "Burrow <3" });
    alice = await newUser(t, "f");
    await addRule(t.deps, "Be kind <script>alert(1)</script>", "No harassment");
    await setInstanceDescription(t.deps, "A small place for friends & family");
  });
  afterAll(() => t.close());

  test("name, description, rules, how to join and the server address, escaped", async () => {
    const { res, html } = await page(t);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    expect(res.headers.get("cache-control")).toStartWith("public");
    expect(html).toContain("<h1>Burrow &lt;3</h1>");
    expect(html).toContain("A small place for friends &amp; family");
    expect(html).toContain("Be kind &lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>");
    expect(html).toContain('href="http://localhost:3000/auth/sign_up">Create an account</a>');
    expect(html).toContain('href="http://localhost:3000/auth/sign_in">Sign in</a>');
    expect(html).toContain("<strong>localhost:3000</strong>");
    expect(html).toContain('<meta property="og:type" content="website">');
  });

  test("recent public local posts: not unlisted, private, direct or replies to others", async () => {
    const bob = await newUser(t, "f");
    const shown = await postStatus(t, alice, "hello from the front page");
    await postStatus(t, alice, { status: "quietly unlisted", visibility: "unlisted" });
    await postStatus(t, alice, { status: "for followers", visibility: "private" });
    await postStatus(t, alice, { status: `@${bob.username} secret`, visibility: "direct" });
    const bobs = await postStatus(t, bob, "bob's post");
    await postStatus(t, alice, { status: `@${bob.username} a reply to bob`, in_reply_to_id: bobs.id });
    const { html } = await page(t);
    expect(html).toContain("hello from the front page");
    expect(html).toContain(`/@${alice.username}/${shown.id}`);
    for (const hidden of ["quietly unlisted", "for followers", "secret", "a reply to bob"]) expect(html).not.toContain(hidden);
  });

  test("HEAD answers with a Date; a matching ETag is 304", async () => {
    const head = await page(t, { method: "HEAD" });
    expect(head.res.status).toBe(200);
    expect(Date.parse(head.res.headers.get("date") ?? "")).toBeGreaterThan(Date.now() - 60_000);
    const first = await page(t);
    const again = await page(t, { headers: { "if-none-match": first.res.headers.get("etag")! } });
    expect(again.res.status).toBe(304);
  });

  test("timeline preview off: no posts on the page, public and hashtag timelines need a user", async () => {
    await postStatus(t, alice, "#previewed text");
    await setTimelinePreview(t.deps, false);
    try {
      const { html } = await page(t);
      expect(html).not.toContain("Recent posts");
      expect(html).not.toContain("hello from the front page");
      for (const path of ["/api/v1/timelines/public", "/api/v1/timelines/tag/previewed"]) {
        const anonymous = await t.request(path);
        expect(anonymous.status).toBe(422);
        expect(((await anonymous.json()) as { error: string }).error).toBe("This method requires an authenticated user");
        expect((await t.request(path, { token: alice.token })).status).toBe(200);
      }
    } finally {
      await setTimelinePreview(t.deps, true);
    }
    expect((await t.request("/api/v1/timelines/public")).status).toBe(200);
  });
});

describe("registration modes", () => {
  for (const [mode, words] of [["approval", "Apply for an account"], ["closed", "Registrations are closed"]] as const) {
    test(mode, async () => {
      const t = await startTestApp({ WARREN_REGISTRATIONS: mode, WARREN_TIMELINE_PREVIEW: "false" });
      try {
        const { html } = await page(t);
        expect(html).toContain(words);
        expect(html).not.toContain(mode === "closed" ? "/auth/sign_up" : "Create an account");
        expect(html).not.toContain("Recent posts");
        expect((await t.request("/api/v1/timelines/public")).status).toBe(422);
        expect((await post(t, "/api/v1/statuses", "nobody")).status).toBe(401);
      } finally {
        await t.close();
      }
    });
  }
});
