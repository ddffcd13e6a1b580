// List entity: {id, title, replies_policy, exclusive}.
import { t, type Static } from "elysia";
import { publicId } from "../lib/ids.ts";
import type { ListRecord } from "../model/relationships.ts";

export const ListSchema = t.Object(
  {
    id: t.String(),
    title: t.String(),
    replies_policy: t.Union([t.Literal("followed"), t.Literal("list"), t.Literal("none")], {
      description: "Which replies to others the list shows: to anyone followed, to list members, or none",
    }),
    exclusive: t.Boolean({ description: "Members' statuses are left out of the home timeline" }),
  },
  { description: "Mastodon List" },
);

export type List = Static<typeof ListSchema>;

export function presentList(list: ListRecord): List {
  return { id: publicId(list.id), title: list.title, replies_policy: list.repliesPolicy, exclusive: list.exclusive };
}
