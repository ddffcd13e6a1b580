// Backdated activity for the annual report tests. The API only ever acts now, and a report is about a year that
// has ended, so a past year is written the way the bench seeder writes statuses: records made by the domain's
// status factory (newStatusRecord) with a past time, stored through the store's own insert functions with
// their indexes and counters, in one write. Ids are times (lib/ids.ts idAtTime), one millisecond apart.
import { newStatusRecord } from "../../src/domain/statuses/record.ts";
import { idAtTime, normaliseId } from "../../src/lib/ids.ts";
import { getAccount } from "../../src/store/accounts.ts";
import { putFollow } from "../../src/store/relationships.ts";
import { adjustStatusCounter, insertStatus } from "../../src/store/statuses.ts";
import { insertFavourite } from "../../src/store/statuses-interactions.ts";
import type { TestApp } from "../helpers/app.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";
import type { StatusRecord, Visibility } from "../../src/model/statuses.ts";

let tick = 0;

/** A distinct time in a day of a month (1–12) of a year, UTC. */
export function at(year: number, month: number, day = 15): number {
  return Date.UTC(year, month - 1, day, 12) + ++tick;
}

export interface PostOptions {
  tags?: string[];
  visibility?: Visibility;
  inReplyTo?: StatusRecord;
  mentions?: string[];
  appId?: string | null;
}

/** The writes a seed may make; every one inside the surrounding store.write. */
export class Backdater {
  constructor(private readonly t: TestApp) {}

  account(publicAccountId: string): AccountRecord {
    const account = getAccount(this.t.deps.store, normaliseId(publicAccountId)!);
    if (!account) throw new Error(`no account ${publicAccountId}`);
    return account;
  }

  post(authorId: string, time: number, options: PostOptions = {}): StatusRecord {
    const { store } = this.t.deps;
    const status = newStatusRecord({
      id: idAtTime(time),
      author: this.account(authorId),
      createdAt: time,
      visibility: options.visibility ?? "public",
      text: `a post ${(options.tags ?? []).map((tag) => `#${tag}`).join(" ")}`,
      content: "<p>a post</p>",
      inReplyTo: options.inReplyTo ?? null,
      applicationId: options.appId ?? null,
      mentionIds: (options.mentions ?? []).map((id) => normaliseId(id)!),
      tags: options.tags ?? [],
    });
    insertStatus(store, status);
    if (status.inReplyToId) adjustStatusCounter(store, status.inReplyToId, "repliesCount", 1);
    return status;
  }

  reply(authorId: string, time: number, parent: StatusRecord, options: PostOptions = {}): StatusRecord {
    return this.post(authorId, time, { ...options, inReplyTo: parent });
  }

  reblog(accountId: string, time: number, original: StatusRecord): StatusRecord {
    const { store } = this.t.deps;
    const wrapper = newStatusRecord({ id: idAtTime(time), author: this.account(accountId), createdAt: time, visibility: "public", reblogOf: original });
    insertStatus(store, wrapper);
    adjustStatusCounter(store, original.id, "reblogsCount", 1);
    return wrapper;
  }

  favourite(accountId: string, time: number, status: StatusRecord): void {
    const { store } = this.t.deps;
    insertFavourite(store, { id: idAtTime(time), accountId: normaliseId(accountId)!, statusId: status.id });
    adjustStatusCounter(store, status.id, "favouritesCount", 1);
  }

  follow(followerId: string, targetId: string, time: number): void {
    putFollow(this.t.deps.store, {
      v: 1,
      id: idAtTime(time),
      accountId: normaliseId(followerId)!,
      targetId: normaliseId(targetId)!,
      reblogs: true,
      notify: false,
      languages: null,
      createdAt: time,
      uri: null,
    });
  }
}

/** Runs `fn` with a Backdater inside one store write. */
export function backdate<T>(t: TestApp, fn: (w: Backdater) => T): Promise<T> {
  const writer = new Backdater(t);
  return t.deps.store.write(() => fn(writer));
}
