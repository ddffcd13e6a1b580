// Status.mentions[] entries.
import { t, type Static } from "elysia";
import { publicId } from "../lib/ids.ts";
import { acctOf } from "./account.ts";
import type { AccountRecord } from "../model/accounts.ts";

export const MentionSchema = t.Object(
  { id: t.String({ description: "Account id" }), username: t.String(), url: t.String(), acct: t.String() },
  { description: "Mastodon Status::Mention" },
);
export type Mention = Static<typeof MentionSchema>;

export function presentMention(account: AccountRecord): Mention {
  return { id: publicId(account.id), username: account.username, url: account.url || account.uri, acct: acctOf(account) };
}
