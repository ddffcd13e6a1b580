// Tags: Status.tags[] entries ({name, url}), and the Tag entity (search, tag pages, followed tags) with
// its last week of `history` (API.md §4.12), each day's numbers as strings as Mastodon sends them.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { TagHistoryDay } from "../domain/tags/history.ts";

export const StatusTagSchema = t.Object({ name: t.String(), url: t.String() }, { description: "Mastodon Status::Tag" });
type StatusTag = Static<typeof StatusTagSchema>;

const tagUrl = (config: Config, name: string) => `${config.url}/tags/${encodeURIComponent(name)}`;

export function presentStatusTag(config: Config, name: string): StatusTag {
  return { name, url: tagUrl(config, name) };
}

export const TagSchema = t.Object(
  {
    id: t.String({ description: "The tag's name (Warren keeps no separate tag ids)" }),
    name: t.String(),
    url: t.String(),
    history: t.Array(
      t.Object({
        day: t.String({ description: "UNIX timestamp of the day's start (UTC)" }),
        uses: t.String(),
        accounts: t.String(),
      }),
      { description: "The last 7 days, today first" },
    ),
    following: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
    featuring: t.Optional(t.Boolean({ description: "Signed-in viewers only" })),
  },
  { description: "Mastodon Tag" },
);
export type Tag = Static<typeof TagSchema>;

/** The signed-in viewer's relation to a tag (domain/tags/follow.ts). */
export interface TagFlags {
  following: boolean;
  featuring: boolean;
}

/** `flags`: the signed-in viewer's (none for anonymous callers, who get neither key). */
export function presentTag(config: Config, name: string, history: readonly TagHistoryDay[], flags: TagFlags | null): Tag {
  const tag: Tag = {
    id: name,
    name,
    url: tagUrl(config, name),
    history: history.map((d) => ({ day: String(d.day / 1000), uses: String(d.uses), accounts: String(d.accounts) })),
  };
  if (flags) {
    tag.following = flags.following;
    tag.featuring = flags.featuring;
  }
  return tag;
}
