// One streaming hub per running app (per Deps): it listens to the job queue's events, where handlers raise
// stream signals from worker threads or the main thread, and renders payloads with the domain loaders and the
// entities.
import type { AppDeps } from "../../deps.ts";
import { clusterLink } from "../../cluster/link.ts";
import { ApiError } from "../../lib/errors.ts";
import { requireUser, viewerFromToken } from "../../domain/auth/viewer.ts";
import { loadNotificationById } from "../../domain/notifications/load.ts";
import { loadStatuses } from "../../domain/statuses/load.ts";
import { StreamRequestError, type StreamViewer } from "../../domain/streaming/channels.ts";
import { StreamHub, type Renderer } from "../../domain/streaming/hub.ts";
import { isStreamSignal } from "../../domain/streaming/signals.ts";
import { presentNotifications } from "../../entities/notification.ts";
import { presentConversations } from "../../entities/conversation.ts";
import { loadConversationById } from "../../domain/conversations/read.ts";
import { presentStatuses } from "../../entities/status.ts";
import { announcementFor, reactionCount } from "../../domain/announcements/announcements.ts";
import { presentAnnouncement } from "../../entities/announcement.ts";
import { publicId } from "../../lib/ids.ts";

const hubs = new WeakMap<AppDeps, StreamHub>();

/** Payloads as Mastodon's streaming server sends them: JSON-encoded entities, rendered once per signal and
 * recipient (statuses with the recipient's flags and filter results on personal streams, notifications for
 * their recipient). */
function renderer(deps: AppDeps): Renderer {
  return {
    status(status, viewerId, context, filteredFor) {
      const filters = { context, accountId: filteredFor ?? viewerId };
      const [presented] = presentStatuses(deps.config, loadStatuses(deps, viewerId, [status], filters));
      return presented ? JSON.stringify(presented) : null;
    },
    notification(recipientId, notificationId) {
      const [presented] = presentNotifications(deps.config, loadNotificationById(deps, recipientId, notificationId));
      return presented ? JSON.stringify(presented) : null;
    },
    conversation(accountId, conversationId) {
      const [presented] = presentConversations(deps.config, loadConversationById(deps, accountId, conversationId));
      return presented ? JSON.stringify(presented) : null;
    },
    announcement(accountId, announcementId) {
      const loaded = announcementFor(deps.store, accountId, announcementId);
      return loaded ? JSON.stringify(presentAnnouncement(deps.config, loaded)) : null;
    },
    announcementReaction(announcementId, name) {
      return JSON.stringify({ name, count: reactionCount(deps.store, announcementId, name), announcement_id: publicId(announcementId) });
    },
  };
}

/** Ends the open streams of this app, if it has any (clients reconnect: to another process, or after the restart). */
export function closeStreams(deps: AppDeps): void {
  hubs.get(deps)?.closeAll();
}

export function streamHub(deps: AppDeps): StreamHub {
  let hub = hubs.get(deps);
  if (!hub) {
    const created = new StreamHub(deps.store, renderer(deps), deps.config);
    const hear = (event: Record<string, unknown>) => {
      if (!isStreamSignal(event)) return;
      // A signal follows its sender's commit, maybe from a worker thread or another process: this thread's read
      // snapshot may still be older (lmdb-js renews it on a zero-delay timer), and would not show it.
      deps.store.freshSnapshot();
      created.dispatch(event);
    };
    deps.jobs.onEvent(hear);
    // Signals raised in the other server processes, relayed by their supervisor (src/cluster).
    clusterLink()?.onSignal(hear);
    hubs.set(deps, created);
    hub = created;
  }
  return hub;
}

/** The token of a stream request: Authorization header, `access_token` query or Sec-WebSocket-Protocol. */
export function streamToken(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header) return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
  const query = new URL(request.url).searchParams.get("access_token");
  if (query) return query;
  return request.headers.get("sec-websocket-protocol")?.split(",")[0]?.trim() || null;
}

/** Every stream needs a user token (Mastodon 4.2+); the streaming server's messages. */
export function authenticateStream(deps: AppDeps, request: Request): StreamViewer {
  const rawToken = streamToken(request);
  if (!rawToken) throw new StreamRequestError(401, "Missing access token");
  const viewer = viewerFromToken(deps.store, rawToken);
  if (!viewer?.account) throw new StreamRequestError(401, "Invalid access token");
  const user = requireUser(viewer);
  return { accountId: user.account.id, scopes: user.scopes, rawToken };
}

/** `{error, status}` for a WebSocket message. */
export function wsError(error: unknown): string {
  if (error instanceof ApiError) return JSON.stringify({ error: error.message, status: error.status });
  return JSON.stringify({ error: "An unexpected error occurred", status: 500 });
}
