// A queue benchmark's world, built through store functions in the bench process (sign-ups through HTTP would
// measure argon2): local accounts, a follow graph, statuses posted through the write path the API uses
// (insertStatus and onStatusCreated in one write, which enqueues the fan-out and the other subscribers' jobs).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDeps } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import type { AppDeps, Deps } from "../../src/deps.ts";
import { onStatusCreated } from "../../src/domain/timelines/distribute.ts";
import { newId } from "../../src/lib/ids.ts";
import { insertAccount } from "../../src/store/accounts.ts";
import { putFollow } from "../../src/store/relationships.ts";
import { insertStatus } from "../../src/store/statuses.ts";
import { localAccount, statusOf } from "../scenarios/fan-out.ts";
import type { AccountRecord } from "../../src/model/accounts.ts";
import type { StatusRecord } from "../../src/model/statuses.ts";

const WRITE_BATCH = 2_000;

export interface World {
  deps: AppDeps;
  close(): Promise<void>;
}

export async function openWorld(env: Record<string, string> = {}): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), "warren-bench-queue-"));
  const deps = createDeps(loadConfig({ ...process.env, WARREN_DATA_DIR: dir, WARREN_LOG: "off", WARREN_RATE_LIMITS: "off", ...env }));
  await deps.jobs.start();
  return {
    deps,
    async close() {
      await deps.jobs.stop();
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function createAccounts(deps: Deps, prefix: string, count: number): Promise<AccountRecord[]> {
  const accounts: AccountRecord[] = [];
  for (let start = 0; start < count; start += WRITE_BATCH) {
    await deps.store.write(() => {
      for (let i = start; i < Math.min(start + WRITE_BATCH, count); i++) {
        const { account, user } = localAccount(deps, `${prefix}${i}`);
        insertAccount(deps.store, account, user);
        accounts.push(account);
      }
    });
  }
  return accounts;
}

/** Inside no write: `pairs` of [followerId, targetId], in batched writes. */
export async function follow(deps: Deps, pairs: Array<[string, string]>): Promise<void> {
  for (let start = 0; start < pairs.length; start += WRITE_BATCH) {
    await deps.store.write(() => {
      for (const [accountId, targetId] of pairs.slice(start, start + WRITE_BATCH)) {
        const now = Date.now();
        putFollow(deps.store, { v: 1, id: newId(now), accountId, targetId, reblogs: true, notify: false, languages: null, createdAt: now, uri: null });
      }
    });
  }
}

/** One write posting a status by each of `authors`, as that many API requests would; resolves with them. */
export async function post(deps: Deps, authors: AccountRecord[], n: number): Promise<StatusRecord[]> {
  const statuses = authors.map((author) => statusOf(author, n));
  await deps.store.write(() => {
    for (const status of statuses) {
      insertStatus(deps.store, status);
      onStatusCreated(deps, status);
    }
  });
  return statuses;
}
