// Stream names (API.md §12) → channels, with the checks Mastodon's streaming server makes when a stream is
// opened or subscribed to: a user token for every stream, scopes per stream, a tag for hashtag streams, an
// own list for list streams. Errors carry the streaming server's messages and statuses.
import { ApiError } from "../../lib/errors.ts";
import { normaliseId, publicId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getList } from "../../store/lists.ts";
import { grants } from "../scopes.ts";
import { normaliseTag } from "../timelines/read.ts";
import type { Origin } from "../timelines/policy.ts";

export const STREAM_NAMES = [
  "user", "user:notification", "public", "public:media", "public:local", "public:local:media", "public:remote",
  "public:remote:media", "hashtag", "hashtag:local", "list", "direct",
] as const;

export type StreamName = (typeof STREAM_NAMES)[number];

/** Who holds the stream: the token's account and scopes; the token is re-checked while the stream is open. */
export interface StreamViewer {
  accountId: string;
  scopes: readonly string[];
  rawToken: string;
}

export interface Channel {
  name: StreamName;
  /** hashtag streams: the tag as matched (lower-case) and as the client named it (echoed in `stream`) */
  tag?: string;
  tagLabel?: string;
  /** list streams */
  listId?: string;
}

export interface ChannelParams {
  tag?: string;
  list?: string;
}

export class StreamRequestError extends ApiError {}

export const missingScopes = () => new StreamRequestError(401, "Access token does not have the required scopes");

/** `user:notification` needs read:notifications; every other stream read:statuses (`read` covers both). */
export function mayOpen(viewer: Pick<StreamViewer, "scopes">, name: StreamName): boolean {
  return grants(viewer.scopes, [name === "user:notification" ? "read:notifications" : "read:statuses"]);
}

/** Notifications ride along on the `user` stream only for tokens that may read them. */
export function mayReadNotifications(viewer: Pick<StreamViewer, "scopes">): boolean {
  return grants(viewer.scopes, ["read:notifications"]);
}

export function isStreamName(name: string): name is StreamName {
  return (STREAM_NAMES as readonly string[]).includes(name);
}

export function openChannel(store: Store, viewer: StreamViewer, rawName: string, params: ChannelParams): Channel {
  if (!isStreamName(rawName)) throw new StreamRequestError(400, "Unknown stream type");
  const name = rawName;
  if (!mayOpen(viewer, name)) throw missingScopes();
  if (name === "hashtag" || name === "hashtag:local") {
    const tag = params.tag ? normaliseTag(params.tag) : "";
    if (!tag) throw new StreamRequestError(400, "No tag for stream provided");
    return { name, tag, tagLabel: params.tag! };
  }
  if (name === "list") {
    if (!params.list) throw new StreamRequestError(400, "Missing list name parameter");
    const listId = normaliseId(params.list);
    if (!listId || !getList(store, viewer.accountId, listId)) throw new StreamRequestError(401, "Not authorized to stream this list");
    return { name, listId };
  }
  return { name };
}

/** The `stream` array of WebSocket messages: [name], [name, tag] or [name, list id]. */
export function streamLabel(channel: Channel): string[] {
  if (channel.tagLabel !== undefined) return [channel.name, channel.tagLabel];
  if (channel.listId) return [channel.name, publicId(channel.listId)];
  return [channel.name];
}

/** One subscription per distinct channel and client. */
export function channelKey(channel: Channel): string {
  return `${channel.name}\u0000${channel.tag ?? channel.listId ?? ""}`;
}

/** The public-timeline filter a public or hashtag stream stands for. */
export function originOf(channel: Channel): Origin {
  if (channel.name.startsWith("public:local") || channel.name === "hashtag:local") return "local";
  if (channel.name.startsWith("public:remote")) return "remote";
  return "all";
}

export function mediaOnly(channel: Channel): boolean {
  return channel.name.endsWith(":media");
}
