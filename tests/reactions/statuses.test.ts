// src/reactions/statuses.ts: what a status being posted, edited or deleted starts, by the facts the event
// carries, and what an event from another server leaves out (every delivery out).
import { expect, test } from "bun:test";
import type { StatusCreatedFacts } from "../../src/domain/events.ts";
import { eventRecorder } from "./record.ts";

const { record, reached } = eventRecorder();

const NONE: StatusCreatedFacts = { tags: false, direct: false, pendingQuote: false, notifyingFollowers: false, remoteAudience: false };
const created = (has: Partial<StatusCreatedFacts> | undefined, firstLink: string | null = null) =>
  ({ statusId: "1", accountId: "2", firstLink, ...(has && { has: { ...NONE, ...has } }) });

test("a plain new status: fan-out and search only", async () => {
  expect(await reached("status.created", created({}))).toEqual(["search.index_status", "timelines.fan_out"]);
});

test("each fact of a new status adds the rows that look for it", async () => {
  expect(await reached("status.created", created({ direct: true }))).toContain("conversations.add_status");
  expect(await reached("status.created", created({ notifyingFollowers: true }))).toContain("notifications.subscribed_status");
  expect(await reached("status.created", created({ tags: true }))).toEqual(expect.arrayContaining(["featured_tags.count", "tags.count_use"]));
  expect(await reached("status.created", created({ pendingQuote: true }))).toContain("federation.quote_request");
  expect(await reached("status.created", created({ remoteAudience: true }))).toContain("federation.send_create");
  expect(await reached("status.created", created({ remoteAudience: false }))).not.toContain("federation.send_create");
});

test("a link gives a card job in the network lane, at once", async () => {
  const jobs = await record("status.created", created({}, "https://example.com/a"));
  expect(jobs.find((job) => job.name === "cards.fetch")).toEqual({ name: "cards.fetch", lane: "network", delayMs: 0 });
});

test("an event recorded before the facts existed gives every subscriber its job", async () => {
  expect(await reached("status.created", created(undefined, "https://example.com/"))).toEqual([
    "cards.fetch",
    "conversations.add_status",
    "featured_tags.count",
    "federation.quote_request",
    "federation.send_create",
    "notifications.subscribed_status",
    "search.index_status",
    "tags.count_use",
    "timelines.fan_out",
  ]);
});

test("a status from another server is never sent out again, whatever its facts", async () => {
  const remote = await reached("status.created", created({ remoteAudience: true, pendingQuote: true, tags: true }), "remote");
  expect(remote.filter((name) => name.startsWith("federation."))).toEqual([]);
  expect(remote).toEqual(expect.arrayContaining(["tags.count_use", "timelines.fan_out"]));
});

test("fan-out runs in the realtime lane; delivery in the network lane", async () => {
  const jobs = await record("status.created", created({ remoteAudience: true }));
  expect(jobs.find((job) => job.name === "timelines.fan_out")?.lane).toBe("realtime");
  expect(jobs.find((job) => job.name === "federation.send_create")?.lane).toBe("network");
});

test("an edit re-renders, notifies, reindexes and sends an Update; a card only for a new first link", async () => {
  const edit = { statusId: "1", accountId: "2" };
  expect(await reached("status.updated", edit)).toEqual([
    "federation.send_status_update",
    "notifications.quoted_update",
    "notifications.status_update",
    "search.reindex_status",
    "streaming.status_update",
  ]);
  expect(await reached("status.updated", { ...edit, firstLink: "https://example.com/new" })).toContain("cards.fetch_edited");
  expect(await reached("status.updated", edit, "remote")).not.toContain("federation.send_status_update");
});

test("a deletion removes the status everywhere and sends a Delete for a local one only", async () => {
  const deletion = { statusId: "1", accountId: "2" };
  expect(await reached("status.deleted", deletion)).toEqual([
    "conversations.remove_status",
    "featured_tags.uncount",
    "federation.send_delete",
    "quotes.removal",
    "search.remove_status",
    "statuses.removal",
  ]);
  expect(await reached("status.deleted", deletion, "remote")).not.toContain("federation.send_delete");
});
