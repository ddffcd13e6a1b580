// Filtered reads at 100k statuses (issue 8, "unbounded scans"): GET /api/v1/timelines/public?only_media=true
// without a token, and a home timeline whose 100k rows are all by a muted author. Every request varies max_id
// (an 8-digit counter as the end of an id near the top of the feed), so none is answered from the page cache:
// each one is a fresh feed scan. only_media reads its own feed; the muted home stops at the row budget
// (SCAN_ROW_BUDGET) with an empty page and a next link.
import type { BenchClient } from "../lib/client.ts";
import type { Scenario } from "./types.ts";

export const STATUSES = 100_000;

interface Seeded {
  authorId: string;
  newestId: string;
  token: string;
}

/** A reader whose home holds STATUSES rows by one remote author; every 1000th status has media. */
export async function seed(client: BenchClient): Promise<Seeded> {
  const reader = await client.user("reader");
  const { id } = await client.api<{ id: string }>("/api/v1/accounts/verify_credentials", { token: reader.token });
  const seeded = await client.warren.script("bench/scenarios/seed-statuses.ts", String(STATUSES), id);
  if (seeded.code !== 0) throw new Error(`seeding failed (${seeded.code}): ${seeded.stderr}`);
  const { authorId, newestId } = JSON.parse(seeded.stdout.trim().split("\n").at(-1)!) as { authorId: string; newestId: string };
  return { authorId, newestId, token: reader.token };
}

/** `max_id=` values below the newest status, a different one per request: its first 10 digits, less one, then {{n}}. */
export function varyingMaxId(newestId: string): string {
  return `${BigInt(newestId) / 100_000_000n - 1n}{{n}}`;
}

export const publicOnlyMedia: Scenario = {
  name: "public_only_media_100k",
  description: `GET /api/v1/timelines/public?only_media=true&max_id=<varies>, no token, ${STATUSES / 1000}k statuses (0.1% with media)`,
  async prepare(client) {
    const { newestId } = await seed(client);
    const page = await client.api<unknown[]>(`/api/v1/timelines/public?only_media=true&max_id=${newestId}`);
    if (page.length !== 20) throw new Error(`only_media gave ${page.length} statuses, not 20`);
    return { method: "GET", path: `/api/v1/timelines/public?only_media=true&max_id=${varyingMaxId(newestId)}` };
  },
};

export const homeMuted: Scenario = {
  name: "home_muted_100k",
  description: `GET /api/v1/timelines/home?max_id=<varies>, user token, ${STATUSES / 1000}k home rows all by a muted author`,
  async prepare(client) {
    const { authorId, newestId, token } = await seed(client);
    await client.api(`/api/v1/accounts/${authorId}/mute`, { token, json: {} });
    const page = await client.api<unknown[]>(`/api/v1/timelines/home?max_id=${newestId}`, { token });
    if (page.length !== 0) throw new Error(`the muted home gave ${page.length} statuses`);
    return { method: "GET", path: `/api/v1/timelines/home?max_id=${varyingMaxId(newestId)}`, headers: { authorization: `Bearer ${token}` } };
  },
};
