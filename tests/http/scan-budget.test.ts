// Filtered reads examine at most SCAN_ROW_BUDGET rows per request (docs/timelines.md): behind more rows than
// that which the filter rejects, a page comes back short or empty with a Link that continues past the last
// row examined, and following the links reaches the matching rows. only_media reads its own feeds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { notify } from "../../src/domain/notifications/notify.ts";
import { BASE, startTestApp, type TestApp } from "../helpers/app.ts";
import { follow, followRemote, get, idOf, newUser, post, remoteAccount, remoteStatus, remoteStatuses, type User } from "./timelines-helpers.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";
import { SCAN_ROW_BUDGET } from "../../src/model/paging.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ WARREN_JOB_WORKERS: "2" });
});
afterAll(() => t.close());

/** More rejected rows than one request may examine, but fewer than two requests' worth. */
const REJECTED = Math.round(SCAN_ROW_BUDGET * 1.5);

interface Page {
  ids: string[];
  next?: string;
  prev?: string;
}

async function page(path: string, token?: string): Promise<Page> {
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  expect(res.status).toBe(200);
  const links: Record<string, string> = {};
  for (const part of (res.headers.get("link") ?? "").split(", ").filter(Boolean)) {
    const [, url, rel] = part.match(/^<([^>]+)>; rel="(\w+)"$/)!;
    links[rel!] = url!.slice(BASE.length);
  }
  return { ids: (res.body as { id: string }[]).map((s) => s.id), next: links.next, prev: links.prev };
}

/** Follows `next` links from `path` to the end: the ids seen on the way and the requests it took. */
async function walk(path: string, token?: string): Promise<{ seen: string[]; requests: number }> {
  const seen: string[] = [];
  let next: string | undefined = path;
  let requests = 0;
  while (next && requests < 10) {
    const current: Page = await page(next, token);
    requests++;
    seen.push(...current.ids);
    next = current.next;
  }
  return { seen, requests };
}

describe("home full of a muted author", () => {
  let reader: User;
  let quiet: AccountRecord;
  let wanted: string;

  beforeAll(async () => {
    reader = await newUser(t, "reader");
    const loud = await remoteAccount(t, "loud");
    quiet = await remoteAccount(t, "quiet");
    await followRemote(t, reader, loud);
    await followRemote(t, reader, quiet);
    wanted = idOf(await remoteStatus(t, quiet));
    await remoteStatuses(t, loud, REJECTED);
    expect((await post(t, `/api/v1/accounts/${idOf(loud)}/mute`, reader.token)).status).toBe(200);
  });

  test("the first page stops at the budget: empty, with a next link and no prev", async () => {
    const first = await page("/api/v1/timelines/home", reader.token);
    expect(first.ids).toEqual([]);
    expect(first.next).toStartWith("/api/v1/timelines/home?max_id=");
    expect(first.prev).toBeUndefined();
  });

  test("following next reaches the status under the muted rows, then the end", async () => {
    expect(await walk("/api/v1/timelines/home?limit=5", reader.token)).toEqual({ seen: [wanted], requests: 3 });
  });

  test("min_id paging upwards stops too, and its prev link continues", async () => {
    const up = await page(`/api/v1/timelines/home?min_id=${wanted}`, reader.token);
    expect(up.ids).toEqual([]);
    expect(up.prev).toStartWith("/api/v1/timelines/home?min_id=");
    expect(up.next).toBeUndefined();
    const further = await page(up.prev!, reader.token);
    expect(further.ids).toEqual([]);
    // The second request reads the rest: nothing left above, so no link onwards.
    expect(further.prev).toBeUndefined();
  });
});

describe("public and hashtag filters", () => {
  let author: AccountRecord;
  let withMedia: string;
  let bothTags: string;

  beforeAll(async () => {
    author = await remoteAccount(t, "painter");
    withMedia = idOf(await remoteStatus(t, author, { mediaIds: ["1"] }));
    bothTags = idOf(await remoteStatus(t, author, { tags: ["art", "ink"] }));
    await remoteStatuses(t, author, REJECTED, { tags: ["art"] });
  });

  test("only_media reads the media feeds: the status is on the first page, in the right flavours", async () => {
    expect((await page("/api/v1/timelines/public?only_media=true")).ids).toEqual([withMedia]);
    expect((await page("/api/v1/timelines/public?only_media=true&remote=true")).ids).toEqual([withMedia]);
    expect((await page("/api/v1/timelines/public?only_media=true&local=true")).ids).toEqual([]);
  });

  test("all[]: a short page with a next link, and the links reach the match", async () => {
    const first = await page("/api/v1/timelines/tag/art?all[]=ink");
    expect(first.ids).toEqual([]);
    expect(first.next).toBeDefined();
    expect(await walk("/api/v1/timelines/tag/art?all[]=ink")).toEqual({ seen: [bothTags], requests: 3 });
  });

  test("any[]: a feed that stopped early holds the page back to where it stopped, so nothing is repeated", async () => {
    // The ink feed finds the status at once; the art feed stops after its budget, above it.
    const first = await page("/api/v1/timelines/tag/ink?any[]=art&all[]=ink");
    expect(first.ids).toEqual([]);
    expect(first.next).toBeDefined();
    expect(await walk("/api/v1/timelines/tag/ink?any[]=art&all[]=ink")).toEqual({ seen: [bothTags], requests: 3 });
  });

  test("an account's statuses with only_media: short page, next link, then the status", async () => {
    const path = `/api/v1/accounts/${idOf(author)}/statuses?only_media=true`;
    const first = await page(path);
    expect(first.ids).toEqual([]);
    expect(first.next).toBeDefined();
    expect(await walk(path)).toEqual({ seen: [withMedia], requests: 3 });
  });
});

describe("notifications filtered by type", () => {
  test("types[]=follow behind many mentions: an empty page with next, then the follow", async () => {
    const recipient = await newUser(t, "busy");
    const follower = await newUser(t, "fan");
    await follow(t, follower, recipient);
    const mentioner = await remoteAccount(t, "chatty");
    const recipientId = recipient.id.padStart(18, "0");
    const mentions = await remoteStatuses(t, mentioner, REJECTED, { mentionIds: [recipientId] });
    // As the inbox records a mention: the status and its notification in one write.
    await t.deps.store.write(() => {
      for (const status of mentions) notify(t.deps, { type: "mention", recipientId, fromAccountId: mentioner.id, statusId: status.id });
    });

    const path = "/api/v1/notifications?types[]=follow";
    const first = await page(path, recipient.token);
    expect(first.ids).toEqual([]);
    expect(first.next).toStartWith("/api/v1/notifications?types%5B%5D=follow&max_id=");
    const { seen, requests } = await walk(path, recipient.token);
    expect(seen.length).toBe(1);
    expect(requests).toBe(3);
    expect((await get(t, `/api/v1/notifications/${seen[0]}`, recipient.token)).body.type).toBe("follow");
  }, 30_000);
});
