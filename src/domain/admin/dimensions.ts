// POST /api/v1/admin/dimensions (Mastodon's Admin::Metrics::Dimension, the admin dashboard's breakdowns): for
// each key asked for that Warren can answer, the top `limit` items. Served keys:
//   languages          languages of the local users' posts in [start_at, end_at]
//   servers            servers whose posts arrived in [start_at, end_at], by number of posts
//   sources            where the users who signed up in [start_at, end_at] came from (an app's name, or Website)
//   software_versions  Warren, Bun and libvips (Mastodon lists its own, Ruby, PostgreSQL, Redis…)
//   space_usage        the database file and the stored media, in bytes
// Other keys (tag_*, instance_*) are left out of the answer.
import { statSync } from "node:fs";
import { join } from "node:path";
import { loadSharp, type Sharp } from "../../media/sharp.ts";
import type { Deps } from "../../deps.ts";
import { Unprocessable } from "../../lib/errors.ts";
import { idAtTime } from "../../lib/ids.ts";
import { WARREN_VERSION } from "../../lib/version.ts";
import { getAccount } from "../../store/accounts.ts";
import { localMembers, mediaBytes, statusesBetween } from "../../store/instance.ts";
import { getApp } from "../../store/oauth.ts";
import type { StatusRecord } from "../../model/statuses.ts";

export const DIMENSION_KEYS = ["languages", "servers", "sources", "software_versions", "space_usage"] as const;
type DimensionKey = (typeof DIMENSION_KEYS)[number];
/** Posts examined per request at most: a dashboard's breakdown, not an export. */
const MAX_STATUSES = 200_000;

export interface DimensionItem {
  key: string;
  humanKey: string;
  value: string;
  unit?: string;
  humanValue?: string;
}

export interface Dimension {
  key: DimensionKey;
  data: DimensionItem[];
}

function top(counts: Map<string, number>, limit: number, human: (key: string) => string = (k) => k): DimensionItem[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([key, value]) => ({ key, humanKey: human(key), value: String(value) }));
}

const serverOf = (deps: Deps, status: StatusRecord) => getAccount(deps.store, status.accountId)?.domain ?? null;

const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);

function byStatus(deps: Deps, from: number, to: number, keyOf: (status: StatusRecord) => string | null): Map<string, number> {
  const counts = new Map<string, number>();
  for (const status of statusesBetween(deps.store, idAtTime(from), idAtTime(to), MAX_STATUSES)) {
    const key = status.deletedAt || status.reblogOfId ? null : keyOf(status);
    if (key) add(counts, key);
  }
  return counts;
}

function sources(deps: Deps, from: number, to: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { user } of localMembers(deps.store)) {
    if (user.createdAt < from || user.createdAt >= to) continue;
    add(counts, user.createdByAppId ? (getApp(deps.store, user.createdByAppId)?.name ?? "An app") : "Website");
  }
  return counts;
}

const size = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

function spaceUsage(deps: Deps): DimensionItem[] {
  const media = mediaBytes(deps.store);
  const database = size(join(deps.config.dataDir, "warren.lmdb"));
  const bytes = (key: string, humanKey: string, value: number): DimensionItem => ({
    key, humanKey, value: String(value), unit: "bytes", humanValue: `${(value / 1024 / 1024).toFixed(1)} MB`,
  });
  return [bytes("lmdb", "Database (LMDB)", database), bytes("media", "Media files", media)];
}

const softwareVersions = (sharp: Sharp): DimensionItem[] => [
  { key: "warren", humanKey: "Warren", value: WARREN_VERSION, humanValue: WARREN_VERSION },
  { key: "bun", humanKey: "Bun", value: Bun.version, humanValue: Bun.version },
  { key: "libvips", humanKey: "libvips", value: sharp.versions.vips, humanValue: sharp.versions.vips },
];

/**
 * A missing bound leaves that side of the period open, as Mastodon's `(start_at..end_at)` range with a nil end
 * does (masto.js asks for dimensions without dates).
 */
export async function adminDimensions(deps: Deps, keys: readonly string[], startAt: string | undefined, endAt: string | undefined, limit: number): Promise<Dimension[]> {
  const from = startAt === undefined ? 0 : Date.parse(startAt);
  const end = endAt === undefined ? Date.now() : Date.parse(endAt);
  if (!Number.isFinite(from) || !Number.isFinite(end) || end < from) {
    throw new Unprocessable("Validation failed: start_at and end_at must be dates, the end not before the start");
  }
  const to = end + 86_400_000; // the end day included
  const served = DIMENSION_KEYS.filter((key) => keys.includes(key));
  const sharp = served.includes("software_versions") ? await loadSharp() : null;
  return served.map((key): Dimension => {
    switch (key) {
      case "languages":
        return { key, data: top(byStatus(deps, from, to, (s) => (s.local ? s.language : null)), limit) };
      case "servers":
        return { key, data: top(byStatus(deps, from, to, (s) => (s.local ? null : serverOf(deps, s))), limit) };
      case "sources":
        return { key, data: top(sources(deps, from, to), limit) };
      case "software_versions":
        return { key, data: softwareVersions(sharp!) };
      case "space_usage":
        return { key, data: spaceUsage(deps) };
    }
  });
}
