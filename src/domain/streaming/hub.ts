// The streaming hub (main thread): open streams and their subscriptions, indexed so that a signal reaches
// only the subscriptions it concerns; every status delivery is re-checked with the timeline policies, the
// same functions the REST timelines use. Payloads are rendered once per signal, by the transport's renderer.
import { publicId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { getUser } from "../../store/accounts.ts";
import { getList } from "../../store/lists.ts";
import { getStatus } from "../../store/statuses.ts";
import { homeHas, listFeedHas } from "../../store/timelines.ts";
import { viewerFromToken } from "../auth/viewer.ts";
import { homeShows, listShows, publicShows, tagShows, TimelineViewer, type Origin } from "../timelines/policy.ts";
import { readableOrigin, type FeedKind } from "../instance/feed-access.ts";
import type { Config } from "../../config.ts";
import { channelKey, mayReadNotifications, mediaOnly, originOf, streamLabel, type Channel, type StreamViewer } from "./channels.ts";
import type { AnnouncementReactionSignal, AnnouncementSignal, DeleteSignal, StreamSignal } from "./signals.ts";
import { activeFilters, matchStatus } from "../filters/match.ts";
import type { FilterContext } from "../../model/filters.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** One open stream: an SSE response or a WebSocket. */
export interface StreamClient {
  readonly viewer: StreamViewer;
  send(stream: string[], event: string, payload: string | undefined): void;
  /** Called every HEARTBEAT_MS: SSE writes a comment, WebSocket pings every other time. */
  heartbeat(): void;
  close(): void;
}

/** Turns records into payload strings (JSON-encoded entities); null when there is nothing to show. */
export interface Renderer {
  /**
   * `viewerId`: with that account's flags (favourited, …) and its filters that match in `context`
   * (`filtered`), as Mastodon renders home and list pushes; null for the public and hashtag streams, which
   * share one anonymous rendering, or, for a subscriber whose filters match the status, one with only their
   * `filtered` (`filteredFor`).
   */
  status(status: StatusRecord, viewerId: string | null, context: FilterContext | null, filteredFor?: string): string | null;
  notification(recipientId: string, notificationId: string): string | null;
  /** A Conversation as its owner sees it; null when it has nothing to show. */
  conversation(accountId: string, conversationId: string): string | null;
  /** An Announcement as the account sees it (read, its reactions); null once it is gone or over. */
  announcement(accountId: string, announcementId: string): string | null;
  /** `{name, count, announcement_id}` of one reaction now. */
  announcementReaction(announcementId: string, name: string): string;
}

interface Subscription {
  client: StreamClient;
  channel: Channel;
  label: string[];
}

export const HEARTBEAT_MS = 15_000;

function addTo<K>(map: Map<K, Set<Subscription>>, key: K, sub: Subscription): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(sub);
}

function removeFrom<K>(map: Map<K, Set<Subscription>>, key: K, sub: Subscription): void {
  const set = map.get(key);
  if (set?.delete(sub) && set.size === 0) map.delete(key);
}

export class StreamHub {
  private clients = new Map<StreamClient, Map<string, Subscription>>();
  /** user, user:notification and direct subscriptions by account */
  private byAccount = new Map<string, Set<Subscription>>();
  private byList = new Map<string, Set<Subscription>>();
  private byTag = new Map<string, Set<Subscription>>();
  private publicSubs = new Set<Subscription>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly store: Store,
    private readonly renderer: Renderer,
    /** The feed access settings' default (domain/instance/feed-access.ts) */
    private readonly config: Config,
  ) {}

  /** What a public or hashtag stream shows its subscriber under the feed access settings; null: nothing. */
  private readableOriginOf(sub: Subscription, kind: FeedKind): Origin | null {
    const role = getUser(this.store, sub.client.viewer.accountId)?.role ?? null;
    return readableOrigin({ store: this.store, config: this.config }, kind, originOf(sub.channel), { signedIn: true, role });
  }

  connect(client: StreamClient): void {
    if (!this.clients.has(client)) this.clients.set(client, new Map());
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), HEARTBEAT_MS);
      // The server keeps the process alive; open streams alone should not hold up a shutdown.
      this.timer.unref?.();
    }
  }

  /** False when the client already had this subscription. */
  subscribe(client: StreamClient, channel: Channel): boolean {
    this.connect(client);
    const subs = this.clients.get(client)!;
    const key = channelKey(channel);
    if (subs.has(key)) return false;
    const sub: Subscription = { client, channel, label: streamLabel(channel) };
    subs.set(key, sub);
    this.index(sub, true);
    return true;
  }

  unsubscribe(client: StreamClient, channel: Channel): void {
    const subs = this.clients.get(client);
    const sub = subs?.get(channelKey(channel));
    if (!sub) return;
    subs!.delete(channelKey(channel));
    this.index(sub, false);
  }

  disconnect(client: StreamClient): void {
    const subs = this.clients.get(client);
    if (!subs) return;
    for (const sub of subs.values()) this.index(sub, false);
    this.clients.delete(client);
    if (this.clients.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  get connections(): number {
    return this.clients.size;
  }

  /** At shutdown: ends every open stream, which would otherwise hold the server's drain open until killed. */
  closeAll(): void {
    for (const client of [...this.clients.keys()]) {
      client.close();
      this.disconnect(client);
    }
  }

  private index(sub: Subscription, add: boolean): void {
    const { channel } = sub;
    const account = sub.client.viewer.accountId;
    if (channel.name === "user" || channel.name === "user:notification" || channel.name === "direct") {
      add ? addTo(this.byAccount, account, sub) : removeFrom(this.byAccount, account, sub);
    } else if (channel.name === "list") {
      add ? addTo(this.byList, channel.listId!, sub) : removeFrom(this.byList, channel.listId!, sub);
    } else if (channel.tag) {
      add ? addTo(this.byTag, channel.tag, sub) : removeFrom(this.byTag, channel.tag, sub);
    } else if (add) {
      this.publicSubs.add(sub);
    } else {
      this.publicSubs.delete(sub);
    }
  }

  /** Heartbeats, and streams whose token was revoked (or whose user lost access) are closed. */
  tick(): void {
    for (const client of [...this.clients.keys()]) {
      const viewer = viewerFromToken(this.store, client.viewer.rawToken);
      if (!viewer || viewer.account?.id !== client.viewer.accountId || viewer.account.suspended || viewer.user?.disabled) {
        this.disconnect(client);
        client.close();
      } else {
        client.heartbeat();
      }
    }
  }

  dispatch(signal: StreamSignal): void {
    if (this.clients.size === 0) return;
    switch (signal.kind) {
      case "update":
        return this.dispatchStatus("update", signal.statusId, signal.homes, signal.lists, signal.broadcast);
      case "status.update":
        return this.dispatchStatus("status.update", signal.statusId, null, null, true);
      case "delete":
        return this.dispatchDelete(signal);
      case "notification":
        return this.dispatchNotification(signal.recipientId, signal.notificationId);
      case "conversation":
        return this.dispatchConversation(signal.accountId, signal.conversationId);
      case "filters_changed":
        for (const sub of this.byAccount.get(signal.accountId) ?? []) {
          if (sub.channel.name === "user") sub.client.send(sub.label, "filters_changed", undefined);
        }
        return;
      case "announcement":
      case "announcement.delete":
      case "announcement.reaction":
        return this.dispatchAnnouncement(signal);
      case "notifications_merged":
        // Mastodon's payload is "1"; clients reload their notifications.
        for (const sub of this.byAccount.get(signal.accountId) ?? []) {
          if (sub.channel.name === "user" || sub.channel.name === "user:notification") sub.client.send(sub.label, "notifications_merged", "1");
        }
    }
  }

  /** To every `user` stream: the announcement as each account sees it, its id when deleted, a reaction's count. */
  private dispatchAnnouncement(signal: AnnouncementSignal | AnnouncementReactionSignal): void {
    const shared = signal.kind === "announcement.delete" ? signal.announcementId
      : signal.kind === "announcement.reaction" ? this.renderer.announcementReaction(signal.announcementId, signal.name) : null;
    for (const subs of this.byAccount.values()) {
      for (const sub of subs) {
        if (sub.channel.name !== "user") continue;
        const payload = shared ?? this.renderer.announcement(sub.client.viewer.accountId, signal.announcementId);
        if (payload !== null) sub.client.send(sub.label, signal.kind, payload);
      }
    }
  }

  /**
   * `homes`/`lists` name the feeds the status just entered; null (an edit) means every feed that holds it.
   * `broadcast` offers it to the public, hashtag and direct streams.
   */
  private dispatchStatus(event: string, statusId: string, homes: string[] | null, lists: string[] | null, broadcast: boolean): void {
    const status = getStatus(this.store, statusId);
    if (!status || status.deletedAt) return;
    const viewers = new Map<string, TimelineViewer>();
    const viewerOf = (id: string) => viewers.get(id) ?? viewers.set(id, new TimelineViewer(this.store, id)).get(id)!;
    // Payloads by rendering: "<account>:<context>" (personal), "" (the shared anonymous one), "~<account>"
    // (anonymous with that subscriber's filter results).
    const payloads = new Map<string, string | null>();
    const render = (key: string, make: () => string | null) => {
      let payload = payloads.get(key);
      if (payload === undefined) payloads.set(key, (payload = make()));
      return payload;
    };
    // The policies leave out what the subscriber's hide filters remove; warn and blur filters arrive as `filtered`.
    const deliver = (sub: Subscription, shows: (viewer: TimelineViewer) => boolean, context: FilterContext | null, personal = true) => {
      const accountId = sub.client.viewer.accountId;
      if (!shows(viewerOf(accountId))) return;
      let payload: string | null;
      if (personal) payload = render(`${accountId}:${context}`, () => this.renderer.status(status, accountId, context));
      else if (this.filtersMatch(accountId, status, context)) payload = render(`~${accountId}`, () => this.renderer.status(status, null, context, accountId));
      else payload = render("", () => this.renderer.status(status, null, context));
      if (payload !== null) sub.client.send(sub.label, event, payload);
    };

    const homeSubs = homes ? homes.flatMap((id) => [...(this.byAccount.get(id) ?? [])]) : [...this.byAccount.values()].flatMap((s) => [...s]);
    for (const sub of homeSubs) {
      if (sub.channel.name !== "user") continue;
      if (!homes && !homeHas(this.store, sub.client.viewer.accountId, status.id)) continue;
      deliver(sub, (viewer) => homeShows(viewer, status), "home");
    }
    const listIds = lists ?? [...this.byList.keys()].filter((id) => listFeedHas(this.store, id, status.id));
    for (const listId of listIds) {
      for (const sub of this.byList.get(listId) ?? []) {
        const list = getList(this.store, sub.client.viewer.accountId, listId);
        if (list) deliver(sub, (viewer) => listShows(viewer, list, status), "home");
      }
    }
    if (!broadcast) return;
    for (const sub of this.publicSubs) {
      const origin = this.readableOriginOf(sub, "live");
      if (!origin) continue;
      const filter = { origin, onlyMedia: mediaOnly(sub.channel) };
      deliver(sub, (viewer) => publicShows(viewer, status, filter), "public", false);
    }
    for (const tag of new Set(status.tags)) {
      for (const sub of this.byTag.get(tag) ?? []) {
        const origin = this.readableOriginOf(sub, "topic");
        if (!origin) continue;
        const filter = { origin, onlyMedia: false, anyOf: [tag], allOf: [], noneOf: [] };
        deliver(sub, (viewer) => tagShows(viewer, status, filter), "public", false);
      }
    }
    // The direct stream gets `conversation` events instead (dispatchConversation), as on Mastodon.
  }

  /** Do any of the account's filters in `context` match the status (a public stream payload of its own)? */
  private filtersMatch(accountId: string, status: StatusRecord, context: FilterContext | null): boolean {
    const set = activeFilters(this.store, accountId);
    return !set.empty && matchStatus(this.store, set, status, context).length > 0;
  }

  /** `delete` carries the bare id; it goes wherever the status could have been streamed. */
  private dispatchDelete(signal: DeleteSignal): void {
    const id = publicId(signal.statusId);
    const send = (sub: Subscription) => sub.client.send(sub.label, "delete", id);
    for (const accountId of signal.homes) {
      for (const sub of this.byAccount.get(accountId) ?? []) if (sub.channel.name === "user") send(sub);
    }
    for (const listId of signal.lists) for (const sub of this.byList.get(listId) ?? []) send(sub);
    const b = signal.broadcast;
    if (!b) return;
    const fromOrigin = (sub: Subscription) => {
      const origin = originOf(sub.channel);
      return origin === "all" || (origin === "local") === b.local;
    };
    if (b.public) {
      for (const sub of this.publicSubs) if (fromOrigin(sub) && (b.media || !mediaOnly(sub.channel))) send(sub);
    }
    for (const tag of new Set(b.tags)) for (const sub of this.byTag.get(tag) ?? []) if (fromOrigin(sub)) send(sub);
    for (const accountId of new Set(b.direct)) {
      for (const sub of this.byAccount.get(accountId) ?? []) if (sub.channel.name === "direct") send(sub);
    }
  }

  /** The `direct` stream's `conversation` event: the owner's Conversation, as GET /api/v1/conversations shows it. */
  private dispatchConversation(accountId: string, conversationId: string): void {
    let payload: string | null | undefined;
    for (const sub of this.byAccount.get(accountId) ?? []) {
      if (sub.channel.name !== "direct") continue;
      payload ??= this.renderer.conversation(accountId, conversationId);
      if (payload !== null) sub.client.send(sub.label, "conversation", payload);
    }
  }

  private dispatchNotification(recipientId: string, notificationId: string): void {
    let payload: string | null | undefined;
    for (const sub of this.byAccount.get(recipientId) ?? []) {
      const wanted = sub.channel.name === "user:notification" || (sub.channel.name === "user" && mayReadNotifications(sub.client.viewer));
      if (!wanted) continue;
      payload ??= this.renderer.notification(recipientId, notificationId);
      if (payload !== null) sub.client.send(sub.label, "notification", payload);
    }
  }
}
