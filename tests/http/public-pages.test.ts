// Public pages of people and posts through HTTP, as a browser (Accept: text/html) and a feed reader ask:
// /@username, /@username.rss, /@username/:id, and the /users/… URLs browsers are redirected from, while
// ActivityPub requests for the same URLs still get the actor.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Parser } from "htmlparser2";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { createUser, signedInUser } from "../helpers/clients.ts";
import { uploadImage } from "../helpers/media.ts";
import { suspendAccount } from "../helpers/moderation.ts";

type User = Awaited<ReturnType<typeof signedInUser>>;

let t: TestApp;
let alice: User;
let bob: User;
let carol: User;
let dave: User;
const ids: Record<string, string> = {};
const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
const ACTIVITY = { accept: "application/activity+json" };
const DISPLAY_NAME = `<script>alert("x")</script>A&"`;

async function post(user: User, body: Record<string, unknown>): Promise<string> {
  const res = await t.request("/api/v1/statuses", { method: "POST", token: user.token, json: body });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const page = (path: string, headers: Record<string, string> = BROWSER) => t.request(path, { headers });

async function html(path: string): Promise<string> {
  const res = await page(path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  return res.text();
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await signedInUser(t, "alice");
  bob = await signedInUser(t, "bob");
  carol = await signedInUser(t, "carol");
  dave = await signedInUser(t, "dave");
  const profile = await t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: alice.token,
    json: {
      display_name: DISPLAY_NAME,
      note: "Gardener. Likes <b>tags</b>.",
      fields_attributes: [
        { name: "Website", value: "https://alice.example/" },
        { name: "Pronouns", value: "she/her" },
      ],
    },
  });
  expect(profile.status).toBe(200);

  ids.public = await post(alice, { status: "Hello, public world", visibility: "public" });
  ids.unlisted = await post(alice, { status: "Quietly unlisted", visibility: "unlisted" });
  ids.private = await post(alice, { status: "Only for followers", visibility: "private" });
  ids.direct = await post(alice, { status: "@bob a secret between us", visibility: "direct" });
  ids.bobs = await post(bob, { status: "Bob's public thoughts", visibility: "public" });
  ids.replyToBob = await post(alice, { status: "@bob answering you", in_reply_to_id: ids.bobs, visibility: "public" });
  ids.selfReply = await post(alice, { status: "Continuing my own thread", in_reply_to_id: ids.public, visibility: "public" });
  ids.warned = await post(alice, { status: "Spoilers <b>inside</b>", spoiler_text: "Film ending & more", visibility: "public" });
  const image = await uploadImage(t, alice.token, "A red square on white");
  ids.picture = await post(alice, { status: "Look at this", media_ids: [image.id], visibility: "public" });
  ids.pinned = await post(alice, { status: "Read me first", visibility: "public" });
  expect((await t.request(`/api/v1/statuses/${ids.pinned}/pin`, { method: "POST", token: alice.token })).status).toBe(200);
  ids.newest = await post(alice, { status: "The newest post", visibility: "public" });
});

afterAll(() => t.close());

describe("profile page", () => {
  test("shows the public posts, newest first, pinned ones above; never unlisted, private, direct or replies to others", async () => {
    const body = await html("/@alice");
    for (const text of ["Hello, public world", "Continuing my own thread", "Look at this", "Read me first", "The newest post"]) {
      expect(body).toContain(text);
    }
    for (const text of ["Quietly unlisted", "Only for followers", "a secret between us", "answering you", "Bob&#39;s public thoughts"]) {
      expect(body).not.toContain(text);
    }
    const pinnedAt = body.indexOf("<h2>Pinned</h2>");
    expect(pinnedAt).toBeGreaterThan(0);
    expect(body.indexOf("Read me first")).toBeGreaterThan(pinnedAt);
    // Pinned posts are shown once, above the others.
    expect(body.split("Read me first").length).toBe(2);
    expect(body.indexOf("Read me first")).toBeLessThan(body.indexOf("The newest post"));
    expect(body.indexOf("The newest post")).toBeLessThan(body.indexOf("Hello, public world"));
    // Each post's date links to its page.
    expect(body).toContain(`<a href="${BASE}/@alice/${ids.newest}"><time datetime=`);
    // Usernames are matched in any case; the page's canonical URL is the account's.
    expect(await html("/@ALICE")).toContain(`<link rel="canonical" href="${BASE}/@alice">`);
  });

  test("escapes the display name, shows the handle, bio, fields with rel=me, counts, and the head's metadata", async () => {
    const body = await html("/@alice");
    expect(body).not.toContain("<script>");
    expect(body).toContain("<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;A&amp;&quot;</h1>");
    expect(body).toContain("@alice@localhost:3000");
    expect(body).toContain("Gardener. Likes &lt;b&gt;tags&lt;/b&gt;.");
    expect(body).toMatch(/<dt>Website<\/dt><dd><a href="https:\/\/alice.example\/"[^>]* rel="nofollow noopener me"/);
    expect(body).toContain("<dt>Pronouns</dt><dd>she/her</dd>");
    expect(body).toContain(`<link rel="alternate" type="application/activity+json" href="${BASE}/users/alice">`);
    expect(body).toContain(`<link rel="alternate" type="application/rss+xml" href="${BASE}/@alice.rss"`);
    expect(body).toContain('<meta property="og:type" content="profile">');
    expect(body).toContain(`<meta property="og:title" content="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;A&amp;&quot; (@alice@localhost:3000)">`);
    expect(body).toMatch(/<meta name="description" content="\d+ Posts, 0 Following, 0 Followers · Gardener\. Likes &lt;b&gt;tags&lt;\/b&gt;\.">/);
    expect(body).toMatch(/<li><strong>\d+<\/strong> posts<\/li>/);
  });

  test("a content warning hides the post in <details>; images carry their description as alt text", async () => {
    const body = await html("/@alice");
    expect(body).toContain("<details><summary>Film ending &amp; more</summary><p>Spoilers &lt;b&gt;inside&lt;/b&gt;</p></details>");
    expect(body).toMatch(/<img src="[^"]+" alt="A red square on white" loading="lazy">/);
  });

  test("short public caching, an ETag, 304 for a current one, and Vary: Accept", async () => {
    const res = await page("/@alice");
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=15");
    expect(res.headers.get("vary")).toContain("Accept");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"/);
    const again = await page("/@alice", { ...BROWSER, "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  test("pages by max_id: 20 posts a page, no repeats, pinned only on the first", async () => {
    const made: string[] = [];
    for (let i = 0; i < 23; i++) made.push(await post(carol, { status: `Carol number ${i}.`, visibility: "public" }));
    await post(carol, { status: "Carol's private note", visibility: "private" });
    const pinned = made[5]!;
    expect((await t.request(`/api/v1/statuses/${pinned}/pin`, { method: "POST", token: carol.token })).status).toBe(200);
    const first = await html("/@carol");
    const shown = (body: string) => [...body.matchAll(/Carol number (\d+)\./g)].map((m) => Number(m[1]));
    // The pinned post first, then the 20 newest others (22 down to 2, without 5).
    expect(shown(first)).toEqual([5, ...[22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 4, 3, 2]]);
    const next = /<a rel="next" href="([^"]+)">/.exec(first)![1]!;
    expect(next).toBe(`${BASE}/@carol?max_id=${made[2]}`);
    const second = await html(next.slice(BASE.length));
    expect(shown(second)).toEqual([1, 0]);
    expect(second).not.toContain("<h2>Pinned</h2>");
    expect(second).not.toContain('rel="next"');
    expect(second).not.toContain("private note");
    expect(second).toContain(`<link rel="canonical" href="${next}">`);
  });

  test("a suspended account shows a notice instead of its profile and posts", async () => {
    const eve = await signedInUser(t, "eve");
    const id = await post(eve, { status: "Eve was here", visibility: "public" });
    await t.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: eve.token, json: { note: "Eve's bio" } });
    await suspendAccount(t, eve.id);
    const body = await html("/@eve");
    expect(body).toContain("This account has been suspended");
    expect(body).not.toContain("Eve was here");
    expect(body).not.toContain("Eve&#39;s bio");
    expect((await page(`/@eve/${id}`)).status).toBe(404);
    const feed = await page("/@eve.rss");
    expect(feed.status).toBe(200);
    expect(await feed.text()).not.toContain("Eve was here");
  });

  test("unknown, unapproved and unconfirmed accounts and other servers' handles are 404 pages", async () => {
    await createUser(t, "pending", { approved: false });
    await createUser(t, "unconfirmed", { confirmed: false });
    for (const path of ["/@nobody", "/@pending", "/@unconfirmed", "/@alice@remote.example", "/@nobody.rss", "/@pending.rss"]) {
      const res = await page(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("<h1>Not found</h1>");
    }
  });
});

describe("status page", () => {
  test("a public post with its public thread; a blocked author's and private replies left out", async () => {
    const root = await post(bob, { status: "Root of the thread", visibility: "public" });
    const middle = await post(alice, { status: "@bob alice replies", in_reply_to_id: root, visibility: "public" });
    await post(bob, { status: "@alice bob replies publicly", in_reply_to_id: middle, visibility: "public" });
    await post(dave, { status: "@alice dave replies privately", in_reply_to_id: middle, visibility: "private" });
    await post(dave, { status: "@alice dave replies directly", in_reply_to_id: middle, visibility: "direct" });
    await post(carol, { status: "@alice carol is blocked", in_reply_to_id: middle, visibility: "public" });
    await post(alice, { status: "@bob alice adds, unlisted", in_reply_to_id: middle, visibility: "unlisted" });
    expect((await t.request(`/api/v1/accounts/${carol.id}/block`, { method: "POST", token: alice.token })).status).toBe(200);

    const body = await html(`/@alice/${middle}`);
    const main = body.slice(body.indexOf("<main>"));
    const order = ["Root of the thread", "alice replies", "bob replies publicly", "alice adds, unlisted"].map((text) => main.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const text of ["dave replies privately", "dave replies directly", "carol is blocked"]) expect(body).not.toContain(text);
    expect(body).toContain('<meta property="og:type" content="article">');
    expect(body).toContain('<meta property="og:description" content="@bob alice replies">');
    expect(body).toContain(`<link rel="alternate" type="application/activity+json" href="${BASE}/users/alice/statuses/${middle}">`);
    expect(body).toContain(`<link rel="canonical" href="${BASE}/@alice/${middle}">`);
  });

  test("an unlisted post is reachable by its id; a content warning is all the description tells", async () => {
    expect(await html(`/@alice/${ids.unlisted}`)).toContain("Quietly unlisted");
    const warned = await html(`/@alice/${ids.warned}`);
    expect(warned).toContain('<meta name="description" content="Content warning: Film ending &amp; more">');
  });

  test("private, direct, deleted, reblogged, another account's and malformed ids are 404 pages", async () => {
    const gone = await post(alice, { status: "Soon deleted", visibility: "public" });
    expect((await t.request(`/api/v1/statuses/${gone}`, { method: "DELETE", token: alice.token })).status).toBe(200);
    const reblog = await t.request(`/api/v1/statuses/${ids.bobs}/reblog`, { method: "POST", token: alice.token });
    const reblogId = ((await reblog.json()) as { id: string }).id;
    for (const path of [
      `/@alice/${ids.private}`,
      `/@alice/${ids.direct}`,
      `/@alice/${gone}`,
      `/@alice/${reblogId}`,
      `/@bob/${ids.public}`,
      `/@nobody/${ids.public}`,
      "/@alice/not-an-id",
      "/@alice/99999999999999999999999999",
    ]) {
      const res = await page(path);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("<h1>Not found</h1>");
    }
  });
});

/** Fails unless `xml` is well-formed: every element closed in order, no stray `<` or `&` in text or attributes. */
function parseWellFormed(xml: string): { tags: string[]; texts: Map<string, string[]> } {
  const stack: string[] = [];
  const tags: string[] = [];
  const texts = new Map<string, string[]>();
  const entity = /&(?:#\d+|#x[0-9a-f]+|amp|lt|gt|quot|apos);/gi;
  const clean = (text: string) => expect(text.replace(entity, "")).not.toMatch(/[<&]/);
  const decode = (text: string) =>
    text.replace(entity, (e) =>
      e[1] === "#" ? String.fromCodePoint(e[2] === "x" ? parseInt(e.slice(3), 16) : parseInt(e.slice(2), 10)) : ({ "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" })[e]!,
    );
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        stack.push(name);
        tags.push(name);
        Object.values(attributes).forEach(clean);
      },
      ontext(text) {
        clean(text);
        const at = stack.at(-1)!;
        texts.set(at, [...(texts.get(at) ?? []), decode(text)]);
      },
      onclosetag(name, implied) {
        expect(implied).toBe(false);
        expect(stack.pop()).toBe(name);
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.write(xml);
  parser.end();
  expect(stack).toEqual([]);
  return { tags, texts };
}

describe("RSS feed", () => {
  test("is well-formed RSS 2.0 of the public posts, their HTML escaped, with media and short public caching", async () => {
    const res = await page("/@alice.rss", { accept: "application/rss+xml" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toStartWith("public, max-age=60");
    const xml = await res.text();
    expect(xml).toStartWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"');
    const { tags, texts } = parseWellFormed(xml);
    expect(tags.slice(0, 2)).toEqual(["rss", "channel"]);
    expect(texts.get("title")![0]).toBe(`${DISPLAY_NAME} (@alice@localhost:3000)`);
    const descriptions = texts.get("description")!.join("\n");
    expect(descriptions).toContain("<p>Hello, public world</p>");
    expect(descriptions).toContain("<p>Film ending &amp; more</p><hr /><p>Spoilers &lt;b&gt;inside&lt;/b&gt;</p>");
    for (const text of ["Quietly unlisted", "Only for followers", "secret between us", "answering you"]) expect(xml).not.toContain(text);
    expect(texts.get("guid")).toContain(`${BASE}/@alice/${ids.newest}`);
    expect(texts.get("media:description")).toEqual(["A red square on white"]);
    // public, self-reply, warned, picture, pinned, newest: nothing unlisted, private, direct, deleted or replying to others.
    expect(tags.filter((tag) => tag === "item").length).toBe(6);
  });
});

describe("ActivityPub URLs", () => {
  test("browsers asking for an actor or a status are redirected to its page", async () => {
    const actor = await page("/users/alice");
    expect(actor.status).toBe(302);
    expect(actor.headers.get("location")).toBe(`${BASE}/@alice`);
    const status = await page(`/users/alice/statuses/${ids.public}`);
    expect(status.status).toBe(302);
    expect(status.headers.get("location")).toBe(`${BASE}/@alice/${ids.public}`);
    expect((await page("/users/nobody")).status).toBe(404);
    expect((await page("/users/pending")).status).toBe(404);
  });

  test("ActivityPub requests to /users/alice and /@alice get the actor", async () => {
    for (const path of ["/users/alice", "/@alice"]) {
      const res = await page(path, ACTIVITY);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/activity+json");
      const actor = (await res.json()) as { id: string; type: string; preferredUsername: string };
      expect(actor).toMatchObject({ id: `${BASE}/users/alice`, type: "Person", preferredUsername: "alice" });
    }
    const ld = await page("/@alice", { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' });
    expect(((await ld.json()) as { id: string }).id).toBe(`${BASE}/users/alice`);
  });
});
