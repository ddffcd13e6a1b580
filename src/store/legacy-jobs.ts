// Migration 3: queued jobs of the types that actions enqueued by name before the events backbone become the
// jobs of the subscribers that do the same work now (src/reactions), carrying the event those
// subscribers read. A frozen table: it describes data written by older releases, so it never changes.
import type { Store } from "./handle.ts";
import { putJob } from "./jobs.ts";
import type { JobRecord, Lane } from "../model/jobs.ts";

type Payload = Record<string, string>;

interface Renamed {
  type: string;
  lane: Lane;
  event: string;
  payload(old: Payload, job: JobRecord): Record<string, unknown>;
}

const same = (old: Payload) => old;

const RENAMED: Record<string, Renamed> = {
  "status.created": { type: "timelines.fan_out", lane: "realtime", event: "status.created", payload: (p) => ({ statusId: p.statusId, accountId: "", firstLink: null }) },
  "status.removed": { type: "statuses.removal", lane: "default", event: "status.deleted", payload: (p) => ({ statusId: p.statusId, accountId: "" }) },
  "favourite.removed": { type: "favourites.removal", lane: "default", event: "favourite.removed", payload: (p) => ({ favouriteId: p.id, accountId: p.accountId, statusId: p.statusId }) },
  "block.created": { type: "relationships.block_cleanup", lane: "default", event: "block.created", payload: same },
  "mute.expired": {
    type: "relationships.mute_expiry",
    lane: "default",
    event: "mute.created",
    payload: (p, job) => ({ muteId: "", accountId: p.muterId, targetId: p.targetId, expiresAt: job.runAt }),
  },
  "card.fetch": { type: "cards.fetch", lane: "network", event: "status.created", payload: (p) => ({ statusId: p.statusId, accountId: "", firstLink: p.url }) },
  "follow_request.created": { type: "mail.follow_request", lane: "network", event: "follow.requested", payload: same },
  "timeline.follow_created": { type: "timelines.backfill_follow", lane: "backfill", event: "follow.created", payload: same },
  "timeline.follow_removed": { type: "timelines.forget_follow", lane: "backfill", event: "follow.removed", payload: same },
  "timeline.list_member_added": { type: "timelines.backfill_list_member", lane: "backfill", event: "list.member_added", payload: same },
  "timeline.list_deleted": { type: "timelines.remove_list_feed", lane: "backfill", event: "list.deleted", payload: same },
  "notification.created": { type: "streaming.notification", lane: "realtime", event: "notification.created", payload: same },
};

function renamed(job: JobRecord): JobRecord | null {
  const rule = Object.hasOwn(RENAMED, job.type) ? RENAMED[job.type]! : null;
  if (!rule) return null;
  const event = { type: rule.event, payload: rule.payload(job.payload as Payload, job), origin: "local", at: job.createdAt };
  return { ...job, type: rule.type, lane: rule.lane, payload: { event } };
}

/** Inside the migration's write: waiting and claimed jobs of the old types take their new form. */
export function renameLegacyJobs(store: Store): void {
  for (const { key, value } of [...store.db.jobs.getRange({})]) {
    const next = renamed(value as JobRecord);
    if (!next) continue;
    store.db.jobs.remove(key);
    putJob(store, next);
  }
  for (const { key, value } of [...store.db.jobsClaimed.getRange({})]) {
    const next = renamed(value as JobRecord);
    if (next) store.db.jobsClaimed.put(key, { ...value, ...next });
  }
}
