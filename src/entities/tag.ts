// Tags: Status.tags[] entries ({name, url}), and the Tag entity (search, later tag pages and trends) with
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

/** `signedIn`: whether to add the viewer's flags (following and featuring tags come with a later issue). */
export function presentTag(config: Config, name: string, history: readonly TagHistoryDay[], signedIn: boolean): Tag {
  const tag: Tag = {
    id: name,
    name,
    url: tagUrl(config, name),
    history: history.map((d) => ({ day: String(d.day / 1000), uses: String(d.uses), accounts: String(d.accounts) })),
  };
  if (signedIn) {
    tag.following = false;
    tag.featuring = false;
  }
  return tag;
}
