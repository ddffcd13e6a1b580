// Status.tags[] entries ({name, url}); the full Tag entity with history belongs to search and trends.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";

export const StatusTagSchema = t.Object({ name: t.String(), url: t.String() }, { description: "Mastodon Status::Tag" });
type StatusTag = Static<typeof StatusTagSchema>;

export function presentStatusTag(config: Config, name: string): StatusTag {
  return { name, url: `${config.url}/tags/${encodeURIComponent(name)}` };
}
