// Load, then present: the domain loaders read what a page refers to in one pass, the entities render it.
// Handlers call these so that each stays one domain call and one present call.
import type { Deps } from "../deps.ts";
import type { Viewer } from "../domain/auth/viewer.ts";
import type { NotificationGroupData } from "../domain/notifications/group.ts";
import { loadNotificationGroups, loadNotifications } from "../domain/notifications/load.ts";
import { loadStatuses, viewerAccountId } from "../domain/statuses/load.ts";
import { presentGroupedNotifications, type GroupedNotifications } from "../entities/grouped-notification.ts";
import { presentNotifications, type Notification } from "../entities/notification.ts";
import { statusesJson } from "./cache/rendered-statuses.ts";
import { presentDeletedStatus, presentStatus, presentStatuses, type DeletedStatus, type Status } from "../entities/status.ts";
import type { FilterContext } from "../model/filters.ts";
import type { NotificationRecord } from "../model/notifications.ts";
import type { StatusRecord } from "../model/statuses.ts";

type StatusViewer = Pick<Viewer, "account"> | null;

/**
 * Statuses whose author is gone are left out. `context`: the read path's filter context (`filtered` holds the
 * viewer's filters that apply there); none (null) reports every matching filter, as Mastodon does.
 */
export function statusesFor(deps: Deps, viewer: StatusViewer, statuses: readonly StatusRecord[], context: FilterContext | null = null): Status[] {
  return presentStatuses(deps.config, loadStatuses(deps, viewerAccountId(viewer), statuses, { context }));
}

export function statusFor(deps: Deps, viewer: StatusViewer, status: StatusRecord, context: FilterContext | null = null): Status {
  return presentStatus(deps.config, loadStatuses(deps, viewerAccountId(viewer), [status], { context }));
}

/** The content type of a status sent as text: the one Elysia's Response.json gave it as an object. */
const STATUS_JSON_TYPE = "application/json;charset=utf-8";

/**
 * statusFor's answer as the UTF-8 JSON sent, rendered from the kept per-status parts as timeline pages are
 * (http/cache/rendered-statuses.ts: the same bytes, checked against the objects under tests).
 */
export function statusJsonFor(deps: Deps, set: { headers: Record<string, unknown> }, viewer: StatusViewer, status: StatusRecord, context: FilterContext | null = null): Uint8Array {
  const page = loadStatuses(deps, viewerAccountId(viewer), [status], { context });
  if (page.statuses.length === 0) throw new Error("the status has no author");
  set.headers["content-type"] = STATUS_JSON_TYPE;
  const array = statusesJson(deps, page);
  // The page of one, without its brackets (a view, not a copy).
  return array.subarray(1, array.length - 1);
}

export function deletedStatusFor(deps: Deps, viewer: StatusViewer, status: StatusRecord): DeletedStatus {
  return presentDeletedStatus(deps.config, loadStatuses(deps, viewerAccountId(viewer), [status]));
}

/** Notifications whose account or status cannot be shown are left out. */
export function notificationsFor(deps: Deps, recipientId: string, notifications: readonly NotificationRecord[]): Notification[] {
  return presentNotifications(deps.config, loadNotifications(deps, recipientId, notifications));
}

export function groupedNotificationsFor(deps: Deps, recipientId: string, groups: readonly NotificationGroupData[], paged: boolean, partial = false): GroupedNotifications {
  return presentGroupedNotifications(deps.config, loadNotificationGroups(deps, recipientId, groups), paged, partial);
}
