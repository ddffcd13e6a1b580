// Job types of the timelines and streaming (handlers in src/jobs/handlers), with their payloads.

/** Fan-out of a new status or reblog into home and list feeds; raises the `update` stream signals. */
export const STATUS_CREATED = "status.created";
/** A status was edited: raises `status.update` (enqueued by the edit, inside its write). */
export const STATUS_UPDATED = "status.updated";
/** A follow began: recent statuses of the followed account are back-filled into the follower's home. */
export const FOLLOW_CREATED = "timeline.follow_created";
/** A follow ended: the followed account's rows leave the follower's home and lists. */
export const FOLLOW_REMOVED = "timeline.follow_removed";
/** An account joined a list: its recent statuses are back-filled into the list feed. */
export const LIST_MEMBER_ADDED = "timeline.list_member_added";
/** A list was deleted: its feed rows go. */
export const LIST_DELETED = "timeline.list_deleted";
/** A notification was created: raises the `notification` stream signal. */
export const NOTIFICATION_CREATED = "notification.created";
/** A user's filters changed: raises `filters_changed` on their user streams. */
export const FILTERS_CHANGED = "filters.changed";

export type StatusJob = { statusId: string };
export type FollowJob = { followerId: string; targetId: string };
export type ListMemberJob = { ownerId: string; listId: string; accountId: string };
export type ListJob = { listId: string };
export type NotificationJob = { recipientId: string; notificationId: string };
export type AccountJob = { accountId: string };
