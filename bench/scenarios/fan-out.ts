// Fan-out on write, timed: one status of an author with 10,000 local followers, from the write that creates
// it until the `status.created` job has put it into every follower's home feed. Runs in the bench process on
// a fresh data directory with the real job queue and its worker threads (WARREN_JOB_WORKERS, default 2).
// The followers are created through store functions: 10,000 sign-ups through HTTP would measure argon2.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDeps } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { Deps } from "../../src/deps.ts";
import { localAccountUrls } from "../../src/domain/accounts/create.ts";
import { onStatusCreated } from "../../src/domain/timelines/distribute.ts";
import { newId } from "../../src/lib/ids.ts";
import { insertAccount } from "../../src/store/accounts.ts";
import { putFollow } from "../../src/store/relationships.ts";
import { insertStatus } from "../../src/store/statuses.ts";
import { homeHas } from "../../src/store/timelines.ts";
import type { AccountRecord, UserRecord } from "../../src/model/accounts.ts";
import type { StatusRecord } from "../../src/model/statuses.ts";

/** A measurement that is one timed operation rather than a request rate (see bench/run.ts). */
export interface TimedCheck {
  name: string;
  description: string;
  /** the target: the check fails above it */
  limitMs: number;
  /** Durations of the measured runs, in ms. */
  run(): Promise<number[]>;
}

const FOLLOWERS = 10_000;
const RUNS = 3;
const WRITE_BATCH = 2_000;

export function localAccount(deps: Deps, username: string): { account: AccountRecord; user: UserRecord } {
  const now = Date.now();
  const id = newId(now);
  const account: AccountRecord = {
    v: 1, id, username, domain: null, displayName: "", note: "", noteSource: "", fields: [], locked: false, bot: false, group: false,
    discoverable: true, indexable: true, hideCollections: false, avatarUrl: null, avatarDescription: "", headerUrl: null,
    headerDescription: "", createdAt: now, ...localAccountUrls(deps.config.url, username), statusesCount: 0, followersCount: 0,
    followingCount: 0, lastStatusAt: null, suspended: false, silenced: false, memorial: false,
  };
  const user: UserRecord = {
    v: 1, accountId: id, email: `${username}@bench.example`, passwordHash: "-", role: "User", approved: true, confirmedAt: now,
    disabled: false, locale: "en", reason: null, createdAt: now, createdByAppId: null, privacy: "public", sensitive: false, language: null,
  };
  return { account, user };
}

async function createAudience(deps: Deps, authorId: string): Promise<string[]> {
  const followers: string[] = [];
  for (let start = 0; start < FOLLOWERS; start += WRITE_BATCH) {
    await deps.store.write(() => {
      for (let i = start; i < Math.min(start + WRITE_BATCH, FOLLOWERS); i++) {
        const { account, user } = localAccount(deps, `follower${i}`);
        insertAccount(deps.store, account, user);
        const now = Date.now();
        putFollow(deps.store, { v: 1, id: newId(now), accountId: account.id, targetId: authorId, reblogs: true, notify: false, languages: null, createdAt: now, uri: null });
        followers.push(account.id);
      }
    });
  }
  return followers;
}

export function statusOf(author: AccountRecord, n: number): StatusRecord {
  const now = Date.now();
  const id = newId(now);
  return {
    v: 1, id, accountId: author.id, uri: `${author.uri}/statuses/${id}`, url: `${author.url}/${id}`, local: true, text: `status ${n}`,
    content: `<p>status ${n}</p>`, spoilerText: "", sensitive: false, visibility: "public", language: "en", inReplyToId: null,
    inReplyToAccountId: null, reblogOfId: null, applicationId: null, mentionIds: [], tags: [], mediaIds: [], repliesCount: 0,
    reblogsCount: 0, favouritesCount: 0, createdAt: now, editedAt: null, deletedAt: null,
  };
}

export const fanOut: TimedCheck = {
  name: "fan_out_10k",
  description: `one status to ${FOLLOWERS.toLocaleString("en-US")} local followers' home feeds (write + status.created job)`,
  limitMs: 1000,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "warren-bench-fanout-"));
    const deps = createDeps(loadConfig({ ...process.env, WARREN_DATA_DIR: dir, WARREN_LOG: "off" }));
    try {
      await deps.jobs.start();
      const { account: author, user } = localAccount(deps, "author");
      await deps.store.write(() => insertAccount(deps.store, author, user));
      const followers = await createAudience(deps, author.id);
      const durations: number[] = [];
      for (let n = 0; n < RUNS; n++) {
        const status = statusOf(author, n);
        const started = performance.now();
        await deps.store.write(() => {
          insertStatus(deps.store, status);
          onStatusCreated(deps, status);
        });
        await deps.jobs.drain();
        durations.push(performance.now() - started);
        const missing = followers.filter((id) => !homeHas(deps.store, id, status.id)).length;
        if (missing) throw new Error(`fan-out left ${missing} home feeds without the status`);
      }
      return durations;
    } finally {
      await deps.jobs.stop();
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
