// What background work tells the streaming hub. Job handlers raise these with `ctx.emit` (in a worker thread
// or on the main thread); the hub on the main thread hears them through `jobs.onEvent`, decides which open
// streams they concern, and re-checks every delivery with the timeline policies. Signals carry ids only.

export const STREAM_TOPIC = "stream";

/** A status entered feeds: `homes` and `lists` name the feeds it was put in; `broadcast` also offers it to
 * the public, hashtag and direct streams (sent once per status, with the first signal). */
export type UpdateSignal = {
  topic: typeof STREAM_TOPIC;
  kind: "update";
  statusId: string;
  homes: string[];
  lists: string[];
  broadcast: boolean;
};

/** A status was edited: every stream that may show it gets the new version. */
export type StatusUpdateSignal = { topic: typeof STREAM_TOPIC; kind: "status.update"; statusId: string };

/** Where a deleted status could have been streamed; the status record itself may be gone by then. */
export type DeleteBroadcast = {
  public: boolean;
  local: boolean;
  media: boolean;
  tags: string[];
  /** author and mentioned accounts of a direct status */
  direct: string[];
};

export type DeleteSignal = {
  topic: typeof STREAM_TOPIC;
  kind: "delete";
  statusId: string;
  homes: string[];
  lists: string[];
  broadcast: DeleteBroadcast | null;
};

export type NotificationSignal = { topic: typeof STREAM_TOPIC; kind: "notification"; recipientId: string; notificationId: string };

/** A direct status entered (or started) one of the account's conversations: the `direct` stream's `conversation`. */
export type ConversationSignal = { topic: typeof STREAM_TOPIC; kind: "conversation"; accountId: string; conversationId: string };

export type FiltersChangedSignal = { topic: typeof STREAM_TOPIC; kind: "filters_changed"; accountId: string };

/** The notifications of an accepted notification request joined the account's list (domain/notifications/requests.ts). */
export type NotificationsMergedSignal = { topic: typeof STREAM_TOPIC; kind: "notifications_merged"; accountId: string };

/** An announcement was published, reacted to, or removed: every `user` stream hears of it. */
export type AnnouncementSignal = { topic: typeof STREAM_TOPIC; kind: "announcement" | "announcement.delete"; announcementId: string };
export type AnnouncementReactionSignal = { topic: typeof STREAM_TOPIC; kind: "announcement.reaction"; announcementId: string; name: string };

export type StreamSignal =
  | UpdateSignal
  | StatusUpdateSignal
  | DeleteSignal
  | NotificationSignal
  | FiltersChangedSignal
  | ConversationSignal
  | NotificationsMergedSignal
  | AnnouncementSignal
  | AnnouncementReactionSignal;

/** How domain code raises a signal (a job handler passes its `ctx.emit`). */
export type EmitSignal = (signal: StreamSignal) => void;

export function isStreamSignal(event: Record<string, unknown>): event is StreamSignal {
  return event.topic === STREAM_TOPIC && typeof event.kind === "string";
}
