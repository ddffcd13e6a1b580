// Filters on streams, through real sockets (a listening server, jobs on worker threads): statuses pushed on a
// user's streams carry `filtered` for that user in the stream's context (user and list → home, public and
// hashtag → public, notifications → notifications, direct → every filter), `hide` filters keep them off the
// stream, and every filter write sends `filters_changed` on the owner's user stream only.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { openSse, openWebSocket, settle, startListeningApp, stopListeningApp, type WsClient } from "../helpers/streaming.ts";
import { call, createFilter, follow, keywordFilter, newUser, post, postStatus, sendForm } from "../http/filters-helpers.ts";
import { eventually } from "../helpers/eventually.ts";

setDefaultTimeout(30_000);

let t: TestApp;
let base: string;

beforeAll(async () => ({ t, base } = await startListeningApp()));
afterAll(() => stopListeningApp(t));

const ws = (token: string) => openWebSocket(base, `?access_token=${token}`);

/** Titles of the filters in a pushed status's `filtered`, or undefined when it has no such key. */
const titles = (status: any) => status.filtered?.map((r: any) => r.filter.title);

/** Waits for the update of `statusId` on `stream` ("user", "public", "hashtag:cats", "list:<id>") and returns its status. */
function updateOf(socket: WsClient, stream: string, statusId: string) {
  return eventually(() => socket.updates(stream).find((s) => s.id === statusId), { what: `the update of ${statusId} on ${stream}` });
}

describe("statuses on streams", () => {
  test("user stream: warn and blur arrive with filtered (home context), hide never arrives", async () => {
    const [viewer, author] = [await newUser(t, "fs"), await newUser(t, "fs")];
    await follow(t, viewer, author);
    await keywordFilter(t, viewer, "cat", ["home"]);
    await keywordFilter(t, viewer, "dog", ["home"], { filter_action: "blur" });
    await keywordFilter(t, viewer, "snake", ["home"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "bird", ["public", "thread"], { filter_action: "hide" });
    const socket = await ws(viewer.token);
    await socket.subscribe({ stream: "user" });
    const events = await openSse(base, "/api/v1/streaming/user", viewer.token);

    const snake = await postStatus(t, author, "a snake!");
    const cat = await postStatus(t, author, "a cat!");
    const dog = await postStatus(t, author, "a dog!");
    const bird = await postStatus(t, author, "a bird!");
    const catPush = await updateOf(socket, "user", cat.id);
    expect(titles(catPush)).toEqual(["no cat"]);
    expect(catPush.filtered[0]).toMatchObject({ keyword_matches: ["cat"], status_matches: null, filter: { filter_action: "warn", context: ["home"] } });
    expect(titles(await updateOf(socket, "user", dog.id))).toEqual(["no dog"]);
    expect(titles(await updateOf(socket, "user", bird.id))).toEqual([]);
    await eventually(() => (events.updates().includes(bird.id) ? true : undefined), { what: "the SSE update" });
    await settle(t);
    // Fan-out runs on two workers: the order of pushes is not the order of posting.
    const expected = [cat.id, dog.id, bird.id].sort();
    expect(socket.updateIds("user").sort()).toEqual(expected);
    expect(events.updates().sort()).toEqual(expected);
    expect(expected).not.toContain(snake.id);
    socket.close();
    events.close();
  });

  test("a list stream takes the owner's home-context filters", async () => {
    const [viewer, author] = [await newUser(t, "fs"), await newUser(t, "fs")];
    await follow(t, viewer, author);
    const list = (await post(t, "/api/v1/lists", viewer.token, { title: "l" })).body;
    await post(t, `/api/v1/lists/${list.id}/accounts`, viewer.token, { account_ids: [author.id] });
    await keywordFilter(t, viewer, "rain", ["home"]);
    await keywordFilter(t, viewer, "storm", ["home"], { filter_action: "hide" });
    const socket = await ws(viewer.token);
    await socket.subscribe({ stream: "list", list: list.id });
    const storm = await postStatus(t, author, "storm coming");
    const rain = await postStatus(t, author, "rain today");
    expect(titles(await updateOf(socket, `list:${list.id}`, rain.id))).toEqual(["no rain"]);
    await settle(t);
    expect(socket.updateIds("list")).toEqual([rain.id]);
    expect(rain.id).not.toBe(storm.id);
    socket.close();
  });

  test("public and hashtag streams: each subscriber's public-context filters; others get the shared rendering", async () => {
    const [viewer, bystander, poster] = [await newUser(t, "fs"), await newUser(t, "fs"), await newUser(t, "fs")];
    await keywordFilter(t, viewer, "frog", ["public"]);
    await keywordFilter(t, viewer, "toad", ["public"], { filter_action: "hide" });
    await keywordFilter(t, viewer, "newt", ["home", "notifications", "thread", "account"], { filter_action: "hide" });
    const mine = await ws(viewer.token);
    const theirs = await ws(bystander.token);
    for (const socket of [mine, theirs]) {
      await socket.subscribe({ stream: "public" });
      await socket.subscribe({ stream: "hashtag", tag: "pond" });
    }
    const toad = await postStatus(t, poster, "a toad #pond");
    const frog = await postStatus(t, poster, "a frog #pond");
    const newt = await postStatus(t, poster, "a newt #pond");
    for (const stream of ["public", "hashtag:pond"]) {
      const pushed = await updateOf(mine, stream, frog.id);
      expect(titles(pushed)).toEqual(["no frog"]);
      // Still the anonymous rendering otherwise: no viewer flags.
      expect(pushed).not.toHaveProperty("favourited");
      expect(titles(await updateOf(mine, stream, newt.id))).toBeUndefined();
      expect(titles(await updateOf(theirs, stream, frog.id))).toBeUndefined();
      await updateOf(theirs, stream, toad.id);
    }
    await settle(t);
    expect(mine.updateIds("public").sort()).toEqual([frog.id, newt.id].sort());
    expect(mine.updateIds("hashtag").sort()).toEqual([frog.id, newt.id].sort());
    expect(theirs.updateIds("public").sort()).toEqual([toad.id, frog.id, newt.id].sort());
    mine.close();
    theirs.close();
  });

  test("notifications: filtered in the notifications context; hide keeps the notification off the streams", async () => {
    const [recipient, sender] = [await newUser(t, "fs"), await newUser(t, "fs")];
    await keywordFilter(t, recipient, "lottery", ["notifications"]);
    await keywordFilter(t, recipient, "crypto", ["notifications"], { filter_action: "hide" });
    const socket = await ws(recipient.token);
    await socket.subscribe({ stream: "user:notification" });
    await socket.subscribe({ stream: "user" });
    const crypto = await postStatus(t, sender, `@${recipient.username} crypto!`);
    const lottery = await postStatus(t, sender, `@${recipient.username} you won the lottery`);
    const notification = await eventually(() => socket.events("notification", "user:notification").map((m) => JSON.parse(m.payload!)).find((n) => n.status?.id === lottery.id), { what: "the lottery notification" });
    expect(titles(notification.status)).toEqual(["no lottery"]);
    await eventually(() => (socket.events("notification", "user").length >= 1 ? true : undefined), { what: "the notification on user" });
    await settle(t);
    const pushed = socket.events("notification").map((m) => JSON.parse(m.payload!).status.id);
    expect(pushed).toEqual([lottery.id, lottery.id]);
    expect(pushed).not.toContain(crypto.id);
    socket.close();
  });

  test("direct stream: conversations have no context, every matching filter is reported", async () => {
    const [recipient, sender] = [await newUser(t, "fs"), await newUser(t, "fs")];
    await keywordFilter(t, recipient, "secret", ["thread"]);
    const socket = await ws(recipient.token);
    await socket.subscribe({ stream: "direct" });
    const direct = await postStatus(t, sender, { status: `@${recipient.username} a secret`, visibility: "direct" });
    // The direct stream sends Conversations; their last status carries the filter results.
    const conversation = await eventually(() => socket.events("conversation", "direct").map((m) => JSON.parse(m.payload!)).find((c) => c.last_status.id === direct.id), { what: "the conversation event" });
    expect(titles(conversation.last_status)).toEqual(["no secret"]);
    socket.close();
  });
});

describe("filters_changed", () => {
  test("every filter write tells the owner's user streams, and nobody else's", async () => {
    const [owner, other] = [await newUser(t, "fs"), await newUser(t, "fs")];
    const friend = await newUser(t, "fs");
    const status = await postStatus(t, friend, "something");
    const socket = await ws(owner.token);
    await socket.subscribe({ stream: "user" });
    await socket.subscribe({ stream: "user:notification" });
    const events = await openSse(base, "/api/v1/streaming/user", owner.token);
    const otherSocket = await ws(other.token);
    await otherSocket.subscribe({ stream: "user" });

    const changes = () => socket.events("filters_changed");
    let expected = 0;
    const expectSignal = async (what: string, write: () => Promise<unknown>) => {
      await write();
      expected++;
      await eventually(() => (changes().length >= expected ? true : undefined), { what: `filters_changed after ${what}` });
    };
    const filter = await createFilter(t, owner, { title: "f", context: ["home"], keywords_attributes: [{ keyword: "a" }] });
    expected++;
    await eventually(() => (changes().length >= expected ? true : undefined), { what: "filters_changed after creation" });
    await expectSignal("an update", () => call(t, "PUT", `/api/v2/filters/${filter.id}`, owner.token, { title: "g" }));
    let keywordId = "";
    await expectSignal("a keyword", async () => (keywordId = (await post(t, `/api/v2/filters/${filter.id}/keywords`, owner.token, { keyword: "b" })).body.id));
    await expectSignal("a keyword change", () => call(t, "PUT", `/api/v2/filter_keywords/${keywordId}`, owner.token, { keyword: "c" }));
    await expectSignal("a keyword removal", () => call(t, "DELETE", `/api/v2/filters/keywords/${keywordId}`, owner.token));
    let entryId = "";
    await expectSignal("a status", async () => (entryId = (await sendForm(t, "POST", `/api/v2/filters/${filter.id}/statuses`, owner.token, [["status_id", status.id]])).body.id));
    await expectSignal("a status removal", () => call(t, "DELETE", `/api/v2/filter_statuses/${entryId}`, owner.token));
    let v1Id = "";
    await expectSignal("a v1 creation", async () => (v1Id = (await post(t, "/api/v1/filters", owner.token, { phrase: "x", context: ["home"] })).body.id));
    await expectSignal("a v1 update", () => call(t, "PUT", `/api/v1/filters/${v1Id}`, owner.token, { whole_word: false }));
    await expectSignal("a v1 deletion", () => call(t, "DELETE", `/api/v1/filters/${v1Id}`, owner.token));
    await expectSignal("a deletion", () => call(t, "DELETE", `/api/v2/filters/${filter.id}`, owner.token));

    // Refused writes change nothing and say nothing.
    await post(t, "/api/v2/filters", owner.token, { title: "bad", context: ["home"], filter_action: "nope" });
    await keywordFilter(t, other, "theirs", ["home"]);
    await eventually(() => (otherSocket.events("filters_changed").length === 1 ? true : undefined), { what: "the other user's own signal" });
    await eventually(() => (events.events.filter((e) => e.event === "filters_changed").length === expected ? true : undefined), { what: "the SSE signals" });
    await settle(t);
    expect(changes().length).toBe(expected);
    expect(changes().every((m) => m.stream!.join(":") === "user" && m.payload === undefined)).toBe(true);
    // Over SSE the data line says "undefined", as Mastodon's streaming server writes it (an event with an
    // empty data line would not be dispatched by EventSource).
    expect(events.events.filter((e) => e.event === "filters_changed").every((e) => e.data === "undefined")).toBe(true);
    expect(otherSocket.events("filters_changed").length).toBe(1);
    socket.close();
    otherSocket.close();
    events.close();
  });
});
