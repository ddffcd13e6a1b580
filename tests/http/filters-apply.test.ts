// Filters applied to what a signed-in viewer reads, through HTTP: each read path in its context (home and
// lists → home, public and hashtag timelines → public, a status and its thread → thread, an account's
// statuses → account, notifications v1 and v2 → notifications; favourites and bookmarks have no context and
// report every match), warn and blur (kept, with `filtered`) against hide (left out, pages still full), and
// the kept timeline pages: a filter write or a filter's expiry must end them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import {
  call, createFilter, filteredTitles, follow, get, ids, keywordFilter, newUser, post, postStatus, statusesAt, type User,
} from "./filters-helpers.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2", WARREN_CACHE_STATUS_HEADER: "on" });
});
afterAll(() => t.close());

/** A viewer following an author. */
async function pair(prefix = "fa") {
  const [viewer, author] = [await newUser(t, prefix), await newUser(t, prefix)];
  await follow(t, viewer, author);
  return { viewer, author };
}

/** The one FilterResult of a status for the filter titled `title`. */
function resultOf(status: any, title: string) {
  const found = (status.filtered ?? []).filter((r: any) => r.filter.title === title);
  expect(found.length).toBe(1);
  return found[0];
}

const byId = (statuses: any[], id: string) => statuses.find((s) => s.id === id);

describe("home and lists (the home context)", () => {
  test("warn and blur carry filtered, hide leaves the status out, other contexts do nothing", async () => {
    const { viewer, author } = await pair();
    await keywordFilter(t, viewer, "cat", ["home"]);
    await keywordFilter(t, viewer, "dog", ["home", "public"], { filter_action: "blur" });
    await keywordFilter(t, viewer, "snake", ["home", "thread"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "bird", ["public", "notifications", "thread", "account"]);
    const cat = await postStatus(t, author, "I saw a cat today");
    const dog = await postStatus(t, author, "A dog, a good dog");
    const snake = await postStatus(t, author, "There is a snake in my boot");
    const bird = await postStatus(t, author, "A bird sings");
    const plain = await postStatus(t, author, "Nothing to see");

    const home = await statusesAt(t, "/api/v1/timelines/home", viewer.token);
    expect(ids(home)).toEqual([plain.id, bird.id, dog.id, cat.id]);
    expect(filteredTitles(home)).toEqual({ [plain.id]: [], [bird.id]: [], [dog.id]: ["no dog"], [cat.id]: ["no cat"] });
    const catResult = resultOf(byId(home, cat.id), "no cat");
    expect(catResult).toEqual({
      filter: { id: catResult.filter.id, title: "no cat", context: ["home"], expires_at: null, filter_action: "warn" },
      keyword_matches: ["cat"],
      status_matches: null,
    });
    expect(Object.keys(catResult.filter).sort()).toEqual(["context", "expires_at", "filter_action", "id", "title"]);
    expect(resultOf(byId(home, dog.id), "no dog").filter.filter_action).toBe("blur");

    // A hidden status does not use up the page: four statuses asked, four given.
    expect(ids(await statusesAt(t, "/api/v1/timelines/home?limit=3", viewer.token))).toEqual([plain.id, bird.id, dog.id]);
    expect(ids(await statusesAt(t, `/api/v1/timelines/home?max_id=${dog.id}&limit=1`, viewer.token))).toEqual([cat.id]);
    expect(ids(await statusesAt(t, `/api/v1/timelines/home?min_id=${cat.id}&limit=2`, viewer.token))).toEqual([bird.id, dog.id]);

    // The author sees everything unfiltered; the snake status exists.
    expect(ids(await statusesAt(t, "/api/v1/timelines/home", author.token))).toContain(snake.id);
    expect(filteredTitles(await statusesAt(t, "/api/v1/timelines/home", author.token))[cat.id]).toEqual([]);
  });

  test("your own statuses are never hidden, but still carry filtered", async () => {
    const { viewer } = await pair();
    await keywordFilter(t, viewer, "secret", ["home"], { filter_action: "hide" });
    const own = await postStatus(t, viewer, "my secret");
    const home = await statusesAt(t, "/api/v1/timelines/home", viewer.token);
    expect(ids(home)).toEqual([own.id]);
    expect(resultOf(home[0], "no secret").filter.filter_action).toBe("hide");
  });

  test("a list timeline: the owner's home-context filters", async () => {
    const { viewer, author } = await pair();
    const list = (await post(t, "/api/v1/lists", viewer.token, { title: "people" })).body;
    expect((await post(t, `/api/v1/lists/${list.id}/accounts`, viewer.token, { account_ids: [author.id] })).status).toBe(200);
    await keywordFilter(t, viewer, "rain", ["home"]);
    await keywordFilter(t, viewer, "storm", ["home"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "sun", ["public"], { filter_action: "hide" });
    const rain = await postStatus(t, author, "rain again");
    const storm = await postStatus(t, author, "storm warning");
    const sun = await postStatus(t, author, "sun at last");
    const listed = await statusesAt(t, `/api/v1/timelines/list/${list.id}`, viewer.token);
    expect(ids(listed)).toEqual([sun.id, rain.id]);
    expect(filteredTitles(listed)).toEqual({ [sun.id]: [], [rain.id]: ["no rain"] });
    expect(ids(await statusesAt(t, "/api/v1/timelines/home", viewer.token))).not.toContain(storm.id);
  });

  test("a reblog is matched by the status it wraps; status filters name the original", async () => {
    const { viewer, author } = await pair();
    const stranger = await newUser(t, "fa");
    const original = await postStatus(t, stranger, "a platypus appears");
    const other = await postStatus(t, stranger, "nothing special");
    const reblog = (await post(t, `/api/v1/statuses/${original.id}/reblog`, author.token)).body;
    const otherReblog = (await post(t, `/api/v1/statuses/${other.id}/reblog`, author.token)).body;
    await keywordFilter(t, viewer, "platypus", ["home"]);
    const byStatus = await createFilter(t, viewer, { title: "that one", context: ["home"] });
    expect((await post(t, `/api/v2/filters/${byStatus.id}/statuses`, viewer.token, { status_id: other.id })).status).toBe(200);

    const home = await statusesAt(t, "/api/v1/timelines/home", viewer.token);
    const wrapper = byId(home, reblog.id);
    expect(resultOf(wrapper, "no platypus").keyword_matches).toEqual(["platypus"]);
    expect(resultOf(wrapper.reblog, "no platypus").keyword_matches).toEqual(["platypus"]);
    const otherWrapper = byId(home, otherReblog.id);
    expect(resultOf(otherWrapper, "that one")).toMatchObject({ keyword_matches: null, status_matches: [other.id] });
    expect(filteredTitles(home)[reblog.id]).toEqual(["no platypus"]);

    // A hide filter on the original removes the reblog.
    await keywordFilter(t, viewer, "platypus", ["home"], { filter_action: "hide", title: "hide platypus" });
    expect(ids(await statusesAt(t, "/api/v1/timelines/home", viewer.token))).not.toContain(reblog.id);
  });
});

describe("public and hashtag timelines (the public context)", () => {
  test("signed in: filtered and hidden; anonymous: untouched", async () => {
    const viewer = await newUser(t, "fa");
    const poster = await newUser(t, "fa");
    await keywordFilter(t, viewer, "frog", ["public"]);
    await keywordFilter(t, viewer, "toad", ["public"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "newt", ["home", "thread", "account", "notifications"], { filter_action: "hide" });
    const frog = await postStatus(t, poster, "a frog #ponds");
    const toad = await postStatus(t, poster, "a toad #ponds");
    const newt = await postStatus(t, poster, "a newt #ponds");

    for (const path of ["/api/v1/timelines/public?limit=40", "/api/v1/timelines/tag/ponds", "/api/v1/timelines/public?local=true&limit=40"]) {
      const page = await statusesAt(t, path, viewer.token);
      expect(ids(page)).toContain(frog.id);
      expect(ids(page)).toContain(newt.id);
      expect(ids(page)).not.toContain(toad.id);
      expect(resultOf(byId(page, frog.id), "no frog").keyword_matches).toEqual(["frog"]);
      expect(byId(page, newt.id).filtered).toEqual([]);

      const anonymous = (await get(t, path)).body;
      expect(ids(anonymous)).toContain(toad.id);
      expect(byId(anonymous, frog.id)).not.toHaveProperty("filtered");
    }
  });
});

describe("a status and its thread (the thread context)", () => {
  test("GET /statuses/:id and /context carry the thread filters; hide filters are reported, not removed", async () => {
    const { viewer, author } = await pair();
    const replier = await newUser(t, "fa");
    await keywordFilter(t, viewer, "spoiler", ["thread"]);
    await keywordFilter(t, viewer, "ending", ["thread"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "root", ["home", "public"]);
    const root = await postStatus(t, author, "the root of it");
    const spoiler = await postStatus(t, replier, { status: "spoiler: he was a ghost", in_reply_to_id: root.id });
    const ending = await postStatus(t, replier, { status: "the ending was sad", in_reply_to_id: root.id });

    const thread = (await get(t, `/api/v1/statuses/${spoiler.id}/context`, viewer.token)).body;
    expect(thread.ancestors.map((s: any) => s.id)).toEqual([root.id]);
    expect(thread.ancestors[0].filtered).toEqual([]);
    const context = (await get(t, `/api/v1/statuses/${root.id}/context`, viewer.token)).body;
    expect(filteredTitles(context.descendants)).toEqual({ [spoiler.id]: ["no spoiler"], [ending.id]: ["no ending"] });
    expect(resultOf(byId(context.descendants, ending.id), "no ending").filter.filter_action).toBe("hide");

    expect(resultOf((await get(t, `/api/v1/statuses/${spoiler.id}`, viewer.token)).body, "no spoiler").keyword_matches).toEqual(["spoiler"]);
    expect((await get(t, `/api/v1/statuses/${root.id}`, viewer.token)).body.filtered).toEqual([]);
  });
});

describe("an account's statuses (the account context)", () => {
  test("filtered and hidden on /accounts/:id/statuses only by account filters", async () => {
    const { viewer, author } = await pair();
    await keywordFilter(t, viewer, "politics", ["account"]);
    await keywordFilter(t, viewer, "election", ["account"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "weather", ["home"], { filter_action: "hide" });
    const politics = await postStatus(t, author, "politics again");
    const election = await postStatus(t, author, "election day");
    const weather = await postStatus(t, author, "weather is nice");
    const page = await statusesAt(t, `/api/v1/accounts/${author.id}/statuses`, viewer.token);
    expect(ids(page)).toEqual([weather.id, politics.id]);
    expect(filteredTitles(page)).toEqual({ [weather.id]: [], [politics.id]: ["no politics"] });
    // limit counts shown statuses only.
    expect(ids(await statusesAt(t, `/api/v1/accounts/${author.id}/statuses?limit=2`, viewer.token))).toEqual([weather.id, politics.id]);
    expect(ids(await statusesAt(t, `/api/v1/accounts/${author.id}/statuses`, author.token))).toContain(election.id);
  });
});

describe("notifications (the notifications context)", () => {
  test("v1 and v2: warn carries filtered, hide removes the notification, other contexts do nothing", async () => {
    const recipient = await newUser(t, "fa");
    const sender = await newUser(t, "fa");
    await keywordFilter(t, recipient, "lottery", ["notifications"]);
    await keywordFilter(t, recipient, "crypto", ["notifications"], { filter_action: "hide" });
    await keywordFilter(t, recipient, "hello", ["home", "public", "thread", "account"], { filter_action: "hide" });
    const lottery = await postStatus(t, sender, `@${recipient.username} you won the lottery`);
    const crypto = await postStatus(t, sender, `@${recipient.username} buy crypto now`);
    const hello = await postStatus(t, sender, `@${recipient.username} hello there`);
    await t.deps.jobs.drain();

    const v1 = (await get(t, "/api/v1/notifications", recipient.token)).body;
    expect(v1.map((n: any) => n.status?.id)).toEqual([hello.id, lottery.id]);
    expect(resultOf(v1[1].status, "no lottery").keyword_matches).toEqual(["lottery"]);
    expect(v1[0].status.filtered).toEqual([]);
    // A page of one is still one shown notification.
    expect((await get(t, "/api/v1/notifications?limit=2", recipient.token)).body.length).toBe(2);
    expect((await get(t, "/api/v1/notifications/unread_count", recipient.token)).body).toEqual({ count: 2 });

    const v2 = (await get(t, "/api/v2/notifications", recipient.token)).body;
    expect(v2.notification_groups.map((g: any) => g.status_id)).toEqual([hello.id, lottery.id]);
    expect(v2.statuses.map((s: any) => s.id).sort()).toEqual([hello.id, lottery.id].sort());
    expect(filteredTitles(v2.statuses)).toEqual({ [hello.id]: [], [lottery.id]: ["no lottery"] });

    // The hidden notification is not there by id either.
    const hiddenId = await hiddenNotificationId(recipient, crypto.id);
    expect((await get(t, `/api/v1/notifications/${hiddenId}`, recipient.token)).status).toBe(404);
    expect((await get(t, `/api/v2/notifications/ungrouped-${hiddenId}`, recipient.token)).status).toBe(404);
  });
});

/** The id of the recipient's notification about a status, read from the store (the API does not show it). */
async function hiddenNotificationId(recipient: User, statusId: string): Promise<string> {
  const { pageNotifications } = await import("../../src/store/notifications.ts");
  const rows = pageNotifications(t.deps.store, recipient.id.padStart(18, "0"), { limit: 40 } as any, () => true);
  const row = rows.find((n) => n.statusId === statusId.padStart(18, "0"));
  expect(row).toBeDefined();
  return row!.id.replace(/^0+/, "");
}

describe("paths without a context", () => {
  test("bookmarks and favourites report every matching filter and hide nothing", async () => {
    const { viewer, author } = await pair();
    await keywordFilter(t, viewer, "llama", ["public"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "alpaca", ["thread"]);
    const status = await postStatus(t, author, "a llama and an alpaca");
    await post(t, `/api/v1/statuses/${status.id}/bookmark`, viewer.token);
    const favourited = (await post(t, `/api/v1/statuses/${status.id}/favourite`, viewer.token)).body;
    expect(filteredTitles([favourited])[status.id]!.sort()).toEqual(["no alpaca", "no llama"]);
    for (const path of ["/api/v1/bookmarks", "/api/v1/favourites"]) {
      const page = await statusesAt(t, path, viewer.token);
      expect(ids(page)).toEqual([status.id]);
      expect(filteredTitles(page)[status.id]!.sort()).toEqual(["no alpaca", "no llama"]);
    }
  });
});

describe("the kept timeline pages", () => {
  /** GET three times: the third answer comes from the kept page. */
  async function kept(path: string, token: string) {
    await t.deps.jobs.drain();
    await t.request(path, { token });
    await t.request(path, { token });
    const res = await t.request(path, { token });
    expect(res.headers.get("x-warren-cache")).toBe("hit");
    return res.json() as Promise<any[]>;
  }

  async function fresh(path: string, token: string) {
    const res = await t.request(path, { token });
    expect(res.headers.get("x-warren-cache")).toBe("miss");
    return res.json() as Promise<any[]>;
  }

  test("every filter write ends a kept page", async () => {
    const { viewer, author } = await pair();
    const status = await postStatus(t, author, "penguins waddle");
    const home = "/api/v1/timelines/home";
    expect((await kept(home, viewer.token))[0].filtered).toEqual([]);

    const filter = await createFilter(t, viewer, { title: "birds", context: ["home"] });
    await kept(home, viewer.token);
    const keyword = (await post(t, `/api/v2/filters/${filter.id}/keywords`, viewer.token, { keyword: "penguins" })).body;
    expect(filteredTitles(await fresh(home, viewer.token))[status.id]).toEqual(["birds"]);

    await kept(home, viewer.token);
    await call(t, "PUT", `/api/v2/filters/${filter.id}`, viewer.token, { filter_action: "hide" });
    expect(ids(await fresh(home, viewer.token))).toEqual([]);

    await kept(home, viewer.token);
    await call(t, "PUT", `/api/v2/filters/keywords/${keyword.id}`, viewer.token, { keyword: "puffins" });
    expect(ids(await fresh(home, viewer.token))).toEqual([status.id]);

    await kept(home, viewer.token);
    await call(t, "PUT", `/api/v1/filters/${keyword.id}`, viewer.token, { phrase: "penguins" });
    expect(ids(await fresh(home, viewer.token))).toEqual([]);

    await kept(home, viewer.token);
    await call(t, "DELETE", `/api/v2/filters/${filter.id}`, viewer.token);
    expect(filteredTitles(await fresh(home, viewer.token))).toEqual({ [status.id]: [] });

    // Another account's filter leaves the page kept.
    await kept(home, viewer.token);
    await keywordFilter(t, author, "penguins", ["home"], { filter_action: "hide" });
    await kept(home, viewer.token);
  });

  test("an expiring filter stops applying, and the kept page ends with it", async () => {
    const { viewer, author } = await pair();
    const warned = await postStatus(t, author, "kiwis are birds");
    const hidden = await postStatus(t, author, "emus are birds");
    const warn = await keywordFilter(t, viewer, "kiwis", ["home"], { expires_in: 2 });
    await keywordFilter(t, viewer, "emus", ["home"], { expires_in: 2, filter_action: "hide" });
    const home = "/api/v1/timelines/home";
    const before = await kept(home, viewer.token);
    expect(ids(before)).toEqual([warned.id]);
    expect(resultOf(before[0], "no kiwis").filter.expires_at).toBe(warn.expires_at);

    // The expiry itself is under test: a filter ends at its time, with nothing written then.
    await Bun.sleep(Math.max(0, Date.parse(warn.expires_at) - Date.now()) + 100);
    const after = await fresh(home, viewer.token);
    expect(ids(after)).toEqual([hidden.id, warned.id]);
    expect(filteredTitles(after)).toEqual({ [hidden.id]: [], [warned.id]: [] });
    // The expired filters are still listed, with their expires_at in the past.
    const listed = (await get(t, "/api/v2/filters", viewer.token)).body;
    expect(listed.map((f: any) => f.title)).toEqual(["no kiwis", "no emus"]);
    for (const f of listed) expect(Date.parse(f.expires_at)).toBeLessThan(Date.now());
  });

  test("a page of 20 statuses reads the viewer's filters once, and a page after it none", async () => {
    const { viewer, author } = await pair();
    for (let i = 0; i < 22; i++) await postStatus(t, author, `status number ${i} about owls`);
    await keywordFilter(t, viewer, "owls", ["home"]);
    await keywordFilter(t, viewer, "hawks", ["home"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "number 3", ["home"], { filter_action: "blur" });
    await t.deps.jobs.drain();
    const db = t.deps.store.db.filters;
    const getRange = db.getRange.bind(db);
    let reads = 0;
    db.getRange = ((...args: Parameters<typeof getRange>) => {
      reads++;
      return getRange(...args);
    }) as typeof db.getRange;
    try {
      const page = await statusesAt(t, "/api/v1/timelines/home", viewer.token);
      expect(page.length).toBe(20);
      expect(page.every((s) => s.filtered.some((r: any) => r.filter.title === "no owls"))).toBe(true);
      expect(reads).toBeLessThanOrEqual(1);
      const next = await statusesAt(t, `/api/v1/timelines/home?max_id=${page.at(-1).id}`, viewer.token);
      expect(next.length).toBe(2);
      expect(reads).toBeLessThanOrEqual(1);
    } finally {
      db.getRange = getRange;
    }
  });
});

describe("what a keyword matches", () => {
  /** The keyword_matches of each text for a filter of `keywords`, in the thread context (GET /statuses/:id). */
  async function matches(keywords: { keyword: string; whole_word?: boolean }[], posts: (string | Record<string, unknown>)[]) {
    const { viewer, author } = await pair();
    await createFilter(t, viewer, { title: "words", context: ["thread"], keywords_attributes: keywords });
    const out: (string[] | null)[] = [];
    for (const post of posts) {
      const status = await postStatus(t, author, post as any);
      const seen = (await get(t, `/api/v1/statuses/${status.id}`, viewer.token)).body;
      out.push(seen.filtered.length ? seen.filtered[0].keyword_matches : null);
    }
    return out;
  }

  test("whole words by default; case-insensitive", async () => {
    expect(await matches([{ keyword: "cat" }], ["a cat.", "CAT!", "Cat", "#cat", "category", "bobcat", "cat_lover", "cats"])).toEqual([
      ["cat"], ["cat"], ["cat"], ["cat"], null, null, null, null,
    ]);
  });

  test("whole_word false matches inside words", async () => {
    expect(await matches([{ keyword: "cat", whole_word: false }], ["category", "BOBCAT", "dog"])).toEqual([["cat"], ["cat"], null]);
  });

  test("accents and case: Unicode letters are word characters, composed or not; no accent folding", async () => {
    expect(await matches([{ keyword: "été" }], ["En ÉTÉ, il fait chaud", "les étés", "ete"])).toEqual([["été"], null, null]);
    expect(await matches([{ keyword: "caf" }], ["un café", "caf"])).toEqual([null, ["caf"]]);
    expect(await matches([{ keyword: "caf", whole_word: false }], ["un café"])).toEqual([["caf"]]);
    expect(await matches([{ keyword: "café" }], ["un cafe\u0301 noir", "un cafe noir", "UN CAFÉ"])).toEqual([["café"], null, ["café"]]);
    expect(await matches([{ keyword: "naïve" }], ["So NAÏVE"])).toEqual([["naïve"]]);
    expect(await matches([{ keyword: "Straße" }], ["die strasse", "die STRAßE"])).toEqual([null, ["Straße"]]);
  });

  test("keywords are text, not patterns; every matching keyword is reported", async () => {
    expect(await matches([{ keyword: "c++" }], ["I write c++ daily", "c++11", "c and more"])).toEqual([["c++"], ["c++"], null]);
    expect(await matches([{ keyword: "a.b", whole_word: false }], ["axb", "a.b"])).toEqual([null, ["a.b"]]);
    expect(await matches([{ keyword: "cat" }, { keyword: "dog" }, { keyword: "cow" }], ["cat and dog"])).toEqual([["cat", "dog"]]);
  });

  test("the text is the content without HTML, the spoiler text and media descriptions", async () => {
    const { uploadImage } = await import("../helpers/media.ts");
    const { viewer, author } = await pair();
    await keywordFilter(t, viewer, "fish & chips", ["thread"]);
    await keywordFilter(t, viewer, "nsfw", ["thread"]);
    await keywordFilter(t, viewer, "sleepy", ["thread"]);
    await keywordFilter(t, viewer, "href", ["thread"], { whole_word: false });
    const html = await postStatus(t, author, "fish & chips <3 https://example.com/path");
    const spoiler = await postStatus(t, author, { status: "nothing here", spoiler_text: "NSFW" });
    const media = await uploadImage(t, author.token, "a sleepy kitten");
    const described = await postStatus(t, author, { status: "look", media_ids: [media.id] });
    const titles = async (id: string) => filteredTitles([(await get(t, `/api/v1/statuses/${id}`, viewer.token)).body])[id];
    expect(await titles(html.id)).toEqual(["no fish & chips"]);
    expect(await titles(spoiler.id)).toEqual(["no nsfw"]);
    expect(await titles(described.id)).toEqual(["no sleepy"]);
    // A media description changed later is matched too.
    await t.request(`/api/v1/media/${media.id}`, { method: "PUT", token: author.token, json: { description: "a wide awake kitten" } });
    expect(await titles(described.id)).toEqual([]);
  });
});
