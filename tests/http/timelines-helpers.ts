// Shared steps of the timeline, list and streaming tests. Remote accounts and statuses are created through
// store functions, as the federation inbox will (it does not exist yet); everything else goes through HTTP.
import { expect } from "bun:test";
import { newId, publicId } from "../../src/lib/ids.ts";
import { insertAccount } from "../../src/store/accounts.ts";
import { putFollow } from "../../src/store/relationships.ts";
import { insertStatus } from "../../src/store/statuses.ts";
import { onStatusCreated } from "../../src/domain/timelines/distribute.ts";
import type { TestApp } from "../helpers/app.ts";
import { get, type User } from "./statuses-helpers.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";
import type { StatusRecord } from "../../src/model/statuses.ts";

export * from "./statuses-helpers.ts";

export async function remoteAccount(t: TestApp, username: string, domain = "remote.example"): Promise<AccountRecord> {
  const now = Date.now();
  const actor = `https://${domain}/users/${username}`;
  const account: AccountRecord = {
    v: 1, id: newId(now), username, domain, displayName: username, note: "", noteSource: "", fields: [], locked: false, bot: false,
    group: false, discoverable: true, indexable: true, hideCollections: false, avatarUrl: null, avatarDescription: "", headerUrl: null,
    headerDescription: "", createdAt: now, uri: actor, url: `https://${domain}/@${username}`, inbox: `${actor}/inbox`,
    sharedInbox: `https://${domain}/inbox`, outbox: `${actor}/outbox`, followersUrl: `${actor}/followers`, followingUrl: `${actor}/following`,
    statusesCount: 0, followersCount: 0, followingCount: 0, lastStatusAt: null, suspended: false,
    silenced: false, memorial: false,
  };
  await t.deps.store.write(() => insertAccount(t.deps.store, account));
  return account;
}

/** A remote status arriving as the inbox would store it (indexed and fanned out like a local one). */
export async function remoteStatus(t: TestApp, author: AccountRecord, fields: Partial<StatusRecord> = {}): Promise<StatusRecord> {
  const [status] = await remoteStatuses(t, author, 1, fields);
  return status!;
}

/** `count` remote statuses stored in one write (as a busy inbox batch would), oldest first, fanned out. */
export async function remoteStatuses(t: TestApp, author: AccountRecord, count: number, fields: Partial<StatusRecord> = {}): Promise<StatusRecord[]> {
  const statuses = Array.from({ length: count }, () => remoteStatusRecord(author, fields));
  await t.deps.store.write(() => {
    for (const status of statuses) {
      insertStatus(t.deps.store, status);
      onStatusCreated(t.deps, status);
    }
  });
  await t.deps.jobs.drain();
  return statuses;
}

function remoteStatusRecord(author: AccountRecord, fields: Partial<StatusRecord>): StatusRecord {
  const now = Date.now();
  const id = newId(now);
  return {
    v: 1, id, accountId: author.id, uri: `${author.uri}/statuses/${id}`, url: `${author.url}/${id}`, local: false, text: "",
    content: `<p>remote ${id}</p>`, spoilerText: "", sensitive: false, visibility: "public", language: "en", inReplyToId: null,
    inReplyToAccountId: null, reblogOfId: null, applicationId: null, mentionIds: [], tags: [], mediaIds: [], repliesCount: 0,
    reblogsCount: 0, favouritesCount: 0, createdAt: now, editedAt: null, deletedAt: null, ...fields,
  };
}

/** A local user following a remote account (as an accepted remote follow would be stored). */
export async function followRemote(t: TestApp, follower: User, target: AccountRecord): Promise<void> {
  const now = Date.now();
  const followerId = follower.id.padStart(18, "0");
  await t.deps.store.write(() =>
    putFollow(t.deps.store, { v: 1, id: newId(now), accountId: followerId, targetId: target.id, reblogs: true, notify: false, languages: null, createdAt: now, uri: null }),
  );
}

export const idOf = (record: { id: string }) => publicId(record.id);

/** Ids of a timeline page, after the background jobs have run. */
export async function timeline(t: TestApp, path: string, token?: string): Promise<string[]> {
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  expect(res.status).toBe(200);
  return (res.body as { id: string }[]).map((s) => s.id);
}

/** The ids of the statuses (reblog wrappers stand for themselves) a home timeline shows. */
export const home = (t: TestApp, user: User, query = "") => timeline(t, `/api/v1/timelines/home${query}`, user.token);
