// Announcement (Mastodon's): the operator's message to every user, with the viewer's `read` and reactions.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedAnnouncement } from "../domain/announcements/announcements.ts";
import { textToHtml } from "../lib/html.ts";
import { publicId } from "../lib/ids.ts";
import { Int } from "./integer.ts";
import { Nullable } from "./nullable.ts";
import { CustomEmojiSchema, emojiUrls, presentCustomEmoji } from "./custom-emoji.ts";

const ReactionSchema = t.Object({
  name: t.String({ description: "A Unicode emoji or a custom emoji's shortcode" }),
  count: Int(),
  me: t.Boolean(),
  url: t.Optional(t.String({ description: "Custom emojis only" })),
  static_url: t.Optional(t.String({ description: "Custom emojis only" })),
});

export const AnnouncementSchema = t.Object(
  {
    id: t.String(),
    content: t.String({ description: "HTML" }),
    starts_at: Nullable(t.String()),
    ends_at: Nullable(t.String()),
    published: t.Boolean(),
    all_day: t.Boolean(),
    published_at: t.String(),
    updated_at: t.String(),
    read: t.Boolean({ description: "Dismissed by you" }),
    mentions: t.Array(t.Object({ id: t.String(), username: t.String(), url: t.String(), acct: t.String() })),
    statuses: t.Array(t.Object({ id: t.String(), url: t.String() })),
    tags: t.Array(t.Object({ name: t.String(), url: t.String() })),
    emojis: t.Array(CustomEmojiSchema),
    reactions: t.Array(ReactionSchema),
  },
  { description: "Mastodon Announcement" },
);
export type Announcement = Static<typeof AnnouncementSchema>;

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentAnnouncement(config: Config, loaded: LoadedAnnouncement): Announcement {
  const { announcement: a } = loaded;
  return {
    id: publicId(a.id),
    content: textToHtml(a.text),
    starts_at: iso(a.startsAt),
    ends_at: iso(a.endsAt),
    published: true,
    all_day: a.allDay,
    published_at: iso(a.publishedAt)!,
    updated_at: iso(a.updatedAt)!,
    read: loaded.read,
    mentions: loaded.mentions.map((m) => {
      const acct = m.domain ? `${m.username}@${m.domain}` : m.username;
      return { id: publicId(m.id), username: m.username, url: m.url, acct };
    }),
    statuses: [],
    tags: loaded.tags.map((name) => ({ name, url: `${config.url}/tags/${encodeURIComponent(name)}` })),
    emojis: loaded.emojis.map((emoji) => presentCustomEmoji(config, emoji)),
    reactions: loaded.reactions.map((r) => {
      const emoji = loaded.reactionEmojis.get(r.name);
      return emoji ? { ...r, ...emojiUrls(config, emoji) } : r;
    }),
  };
}
