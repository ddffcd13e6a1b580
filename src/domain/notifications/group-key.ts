// Group keys (API.md §4.8): favourites and reblogs of one status, and follows, received within the same hour
// form one group; every other notification is alone in `ungrouped-<id>`. Keys are derived from the record
// (type, status, creation hour), so they need no index of their own.
import { idAtTime, normaliseId, publicId } from "../../lib/ids.ts";
import type { NotificationRecord } from "../../store/records.ts";

export const GROUPABLE_TYPES = ["favourite", "reblog", "follow"] as const;
const HOUR = 3_600_000;

export function isGroupable(type: string): boolean {
  return (GROUPABLE_TYPES as readonly string[]).includes(type);
}

/** `groupedTypes` limits which groupable types are grouped (v2 `grouped_types[]`). */
export function groupKeyOf(n: NotificationRecord, groupedTypes: ReadonlySet<string> | null = null): string {
  if (!isGroupable(n.type) || (groupedTypes && !groupedTypes.has(n.type))) return `ungrouped-${publicId(n.id)}`;
  const bucket = Math.floor(n.createdAt / HOUR);
  return n.type === "follow" ? `follow-${bucket}` : `${n.type}-${publicId(n.statusId ?? "0")}-${bucket}`;
}

export type ParsedGroupKey =
  | { kind: "single"; id: string }
  | { kind: "status"; type: string; statusId: string; bucket: number }
  | { kind: "follow"; fromId: string; toId: string; bucket: number };

/** Reads a client's group key; null when it is not one of ours. */
export function parseGroupKey(key: string): ParsedGroupKey | null {
  let m = /^ungrouped-(\d{1,30})$/.exec(key);
  if (m) {
    const id = normaliseId(m[1]);
    return id ? { kind: "single", id } : null;
  }
  m = /^follow-(\d{1,12})$/.exec(key);
  if (m) {
    const bucket = Number(m[1]);
    return { kind: "follow", bucket, fromId: idAtTime(bucket * HOUR), toId: idAtTime((bucket + 1) * HOUR) };
  }
  m = /^(favourite|reblog)-(\d{1,30})-(\d{1,12})$/.exec(key);
  if (m) {
    const statusId = normaliseId(m[2]);
    return statusId ? { kind: "status", type: m[1]!, statusId, bucket: Number(m[3]) } : null;
  }
  return null;
}
