// Conversation entity (GET /api/v1/conversations, the `conversation` stream event): a viewer's direct thread,
// with the other participants and its newest status the viewer may see (domain/conversations/read.ts loads it).
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { LoadedConversations } from "../domain/conversations/read.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccounts } from "./account.ts";
import { presentStatus, StatusSchema } from "./status.ts";

export const ConversationSchema = t.Object(
  {
    id: t.String(),
    unread: t.Boolean({ description: "A status arrived since you last read it" }),
    accounts: t.Array(AccountSchema, { description: "The other participants" }),
    last_status: StatusSchema,
  },
  { description: "Mastodon Conversation" },
);
export type Conversation = Static<typeof ConversationSchema>;

export function presentConversations(config: Config, page: LoadedConversations): Conversation[] {
  return page.conversations.map(({ record, accounts, lastStatus }) => ({
    id: publicId(record.id),
    unread: record.unread,
    accounts: presentAccounts(config, accounts, page.viewerId),
    last_status: presentStatus(config, { viewerId: page.viewerId, statuses: [lastStatus] }),
  }));
}
