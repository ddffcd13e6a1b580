// What the test peer sends about its posts, shaped as each server shapes it: Notes and Questions with custom
// emoji, attachments (Mastodon's blurhash/focalPoint, GoToSocial's `summary` alt text, Pleroma's array of
// Links), Updates, Deletes and emoji reactions (Pleroma's EmojiReact, Misskey's Like with `_misskey_reaction`).
// Each helper returns the activity; `peer.send` signs and posts it.
import type { Peer, PeerActor } from "./server.ts";
import { PUBLIC } from "./checks/common.ts";

/** Mastodon's context for statuses (the terms its NoteSerializer uses), plus Pleroma's EmojiReact. */
export const STATUS_CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  {
    ostatus: "http://ostatus.org#",
    atomUri: "ostatus:atomUri",
    sensitive: "as:sensitive",
    Hashtag: "as:Hashtag",
    toot: "http://joinmastodon.org/ns#",
    Emoji: "toot:Emoji",
    focalPoint: { "@container": "@list", "@id": "toot:focalPoint" },
    blurhash: "toot:blurhash",
    votersCount: "toot:votersCount",
    litepub: "http://litepub.social/ns#",
    EmojiReact: "litepub:EmojiReact",
    _misskey_reaction: "misskey:_misskey_reaction",
    misskey: "https://misskey-hub.net/ns#",
  },
];

let serial = 0;

/** An `Emoji` tag as Mastodon sends it. */
export const emojiTag = (peer: Peer, shortcode: string) => ({
  id: `${peer.base}/emojis/${shortcode}`,
  type: "Emoji",
  name: `:${shortcode}:`,
  updated: "2024-01-01T00:00:00Z",
  icon: { type: "Image", mediaType: "image/png", url: `${peer.base}/files/emoji/${shortcode}.png` },
});

/** A public Note by `actor`, served by the peer at its id (so it can be fetched too). */
export function note(peer: Peer, actor: PeerActor, extra: Record<string, unknown> = {}): Record<string, any> {
  const n = ++serial;
  const id = `${actor.id}/statuses/${Date.now()}${n}`;
  const object = {
    id,
    type: "Note",
    attributedTo: actor.id,
    content: `<p>note ${n}</p>`,
    published: new Date().toISOString(),
    url: `${peer.base}/@${actor.username}/${n}`,
    to: [PUBLIC],
    cc: [`${actor.id}/followers`],
    ...extra,
  };
  peer.serve(new URL(id).pathname, { "@context": STATUS_CONTEXT, ...object });
  return object;
}

/** A Question (a poll) by `actor`: `options` as [title, votes]; `anyOf` when `multiple`. */
export function question(peer: Peer, actor: PeerActor, options: [string, number][], extra: Record<string, unknown> & { multiple?: boolean } = {}) {
  const { multiple, ...rest } = extra;
  const items = options.map(([name, votes]) => ({ type: "Note", name, replies: { type: "Collection", totalItems: votes } }));
  return note(peer, actor, {
    type: "Question",
    [multiple ? "anyOf" : "oneOf"]: items,
    endTime: new Date(Date.now() + 60 * 60 * 1000).toISOString(),
    votersCount: options.reduce((sum, [, votes]) => sum + votes, 0),
    ...rest,
  });
}

/** An activity of `type` by `actor` about `object`, addressed as the object is (Public otherwise). */
export function activity(peer: Peer, actor: PeerActor, type: string, object: unknown, extra: Record<string, unknown> = {}): Record<string, any> {
  const addressed = typeof object === "object" && object !== null ? { to: (object as any).to ?? [PUBLIC], cc: (object as any).cc } : { to: [PUBLIC] };
  return { "@context": STATUS_CONTEXT, id: peer.newActivityId(actor, type.toLowerCase()), type, actor: actor.id, ...addressed, object, ...extra };
}
