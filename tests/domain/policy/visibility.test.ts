// src/domain/policy/visibility.ts without an app, on a real store: who may see a status of each visibility
// (author, followers, mentioned, quoted author, anyone), and what hides it (deletion, a suspended author, a
// block by the author, a reblog of what the viewer may not see); what the viewer's own blocks and mutes hide.
import { expect, test } from "bun:test";
import { canSeeStatus, hiddenByViewer } from "../../../src/domain/policy/visibility.ts";
import { putFollow } from "../../../src/store/relationships.ts";
import { putStatus } from "../../../src/store/statuses.ts";
import type { StatusRecord, Visibility } from "../../../src/model/statuses.ts";
import { tempStore } from "../../helpers/temp-store.ts";

const store = tempStore("visibility");
let next = 100;
function status(accountId: string, visibility: Visibility, fields: Partial<StatusRecord> = {}): StatusRecord {
  const id = String(next++);
  return {
    v: 1, id, accountId, uri: `https://here.example/statuses/${id}`, url: null, local: true, text: "", content: "", spoilerText: "",
    sensitive: false, visibility, language: null, inReplyToId: null, inReplyToAccountId: null, reblogOfId: null, applicationId: null,
    mentionIds: [], tags: [], mediaIds: [], repliesCount: 0, reblogsCount: 0, favouritesCount: 0, createdAt: 0, editedAt: null, deletedAt: null,
    ...fields,
  } as StatusRecord;
}
const noBlocks = () => false;
const notSuspended = () => false;
const sees = (viewer: string | null, s: StatusRecord) => canSeeStatus(store, viewer, s, noBlocks, notSuspended);

await store.write(() =>
  putFollow(store, { v: 1, id: "1", accountId: "follower", targetId: "author", reblogs: true, notify: false, languages: null, createdAt: 0, uri: null }),
);

test("public and unlisted: everyone, signed in or not", () => {
  for (const visibility of ["public", "unlisted"] as const) {
    const s = status("author", visibility);
    expect([visibility, sees(null, s), sees("stranger", s)]).toEqual([visibility, true, true]);
  }
});

test("private: the author, followers and mentioned accounts", () => {
  const s = status("author", "private", { mentionIds: ["mentioned"] });
  expect(["author", "follower", "mentioned", "stranger"].map((viewer) => sees(viewer, s))).toEqual([true, true, true, false]);
  expect(sees(null, s)).toBe(false);
});

test("direct: the author and mentioned accounts only, not followers", () => {
  const s = status("author", "direct", { mentionIds: ["mentioned"] });
  expect(["author", "follower", "mentioned", "stranger"].map((viewer) => sees(viewer, s))).toEqual([true, false, true, false]);
});

test("the author of a quoted status may see the quote, whatever its visibility", () => {
  const s = status("author", "direct", { quote: { accountId: "quoted" } as StatusRecord["quote"] });
  expect(sees("quoted", s)).toBe(true);
});

test("deleted statuses and a suspended author's are hidden from everyone, the author included", () => {
  expect(sees("author", status("author", "public", { deletedAt: 1 }))).toBe(false);
  const s = status("author", "public");
  expect(canSeeStatus(store, "author", s, noBlocks, (id) => id === "author")).toBe(false);
});

test("an author who blocks the viewer hides even public statuses; the author still sees them", () => {
  const s = status("author", "public");
  const blocks = (authorId: string) => authorId === "author";
  expect(canSeeStatus(store, "stranger", s, blocks, notSuspended)).toBe(false);
  expect(canSeeStatus(store, "author", s, blocks, notSuspended)).toBe(true);
});

test("a reblog is seen only while the status it wraps is", async () => {
  const original = status("author", "private");
  const deleted = status("author", "public", { deletedAt: 5 });
  await store.write(() => {
    putStatus(store, original);
    putStatus(store, deleted);
  });
  const reblog = status("follower", "public", { reblogOfId: original.id });
  expect(sees("follower", reblog)).toBe(true);
  expect(sees("stranger", reblog)).toBe(false);
  expect(sees("stranger", status("follower", "public", { reblogOfId: deleted.id }))).toBe(false);
  expect(sees("stranger", status("follower", "public", { reblogOfId: "missing" }))).toBe(false);
});

test("hiddenByViewer: the viewer's blocks and mutes hide statuses and reblogs of them; nothing hides for anonymous", async () => {
  const original = status("muted", "public");
  await store.write(() => putStatus(store, original));
  const hides = (authorId: string) => authorId === "muted";
  expect(hiddenByViewer(store, "viewer", status("muted", "public"), hides)).toBe(true);
  expect(hiddenByViewer(store, "viewer", status("friend", "public", { reblogOfId: original.id }), hides)).toBe(true);
  expect(hiddenByViewer(store, "viewer", status("friend", "public"), hides)).toBe(false);
  expect(hiddenByViewer(store, null, status("muted", "public"), hides)).toBe(false);
});
