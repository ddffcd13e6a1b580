// Group keys (API.md §4.8): favourites and reblogs of one status, and follows, form one group while they keep
// coming within Mastodon's window: a group starts in the hour of its first notification and absorbs the same
// kind for up to 12 hours from then (`groupBucket`, set by notify()); every other notification is alone in
// `ungrouped-<id>`. Keys are derived from the record (type, status, group hour), so they need no index.
import { idAtTime, normaliseId, publicId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { latestNotificationOfStatus, pageNotifications } from "../../store/notifications.ts";
import type { NotificationRecord, NotificationType } from "../../model/notifications.ts";
import { RowBudget } from "../../model/paging.ts";

export const GROUPABLE_TYPES = ["favourite", "reblog", "follow"] as const;
const HOUR = 3_600_000;
/** How long a group keeps absorbing, in hours from its start (Mastodon's MAXIMUM_GROUP_SPAN_HOURS). */
export const GROUP_SPAN_HOURS = 12;
/** Newest notifications examined for the recipient's latest follow group. */
const FOLLOW_LOOKBACK_ROWS = 200;

const bucketOf = (n: NotificationRecord) => n.groupBucket ?? Math.floor(n.createdAt / HOUR);

/**
 * Inside the write that creates a groupable notification: the hour its group started, which is the latest
 * group of the same kind when that started less than GROUP_SPAN_HOURS ago, else this hour. Undefined for
 * types that are never grouped.
 */
export function groupBucketFor(store: Store, input: { type: NotificationType; recipientId: string; statusId: string | null }, now: number): number | undefined {
  if (!isGroupable(input.type)) return undefined;
  const hour = Math.floor(now / HOUR);
  const sameKind = (n: NotificationRecord) => n.type === input.type && n.recipientId === input.recipientId;
  let latest: NotificationRecord | undefined;
  if (input.statusId) {
    latest = latestNotificationOfStatus(store, input.statusId, input.recipientId, input.type);
  } else {
    const since = idAtTime((hour - GROUP_SPAN_HOURS) * HOUR);
    [latest] = pageNotifications(store, input.recipientId, { limit: 1, sinceId: since, budget: new RowBudget(FOLLOW_LOOKBACK_ROWS) }, sameKind);
  }
  const previous = latest ? bucketOf(latest) : null;
  return previous !== null && hour < previous + GROUP_SPAN_HOURS ? previous : hour;
}

export function isGroupable(type: string): boolean {
  return (GROUPABLE_TYPES as readonly string[]).includes(type);
}

/** `groupedTypes` limits which groupable types are grouped (v2 `grouped_types[]`). */
export function groupKeyOf(n: NotificationRecord, groupedTypes: ReadonlySet<string> | null = null): string {
  if (!isGroupable(n.type) || (groupedTypes && !groupedTypes.has(n.type))) return `ungrouped-${publicId(n.id)}`;
  const bucket = bucketOf(n);
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
    return { kind: "follow", bucket, fromId: idAtTime(bucket * HOUR), toId: idAtTime((bucket + GROUP_SPAN_HOURS) * HOUR) };
  }
  m = /^(favourite|reblog)-(\d{1,30})-(\d{1,12})$/.exec(key);
  if (m) {
    const statusId = normaliseId(m[2]);
    return statusId ? { kind: "status", type: m[1]!, statusId, bucket: Number(m[3]) } : null;
  }
  return null;
}
