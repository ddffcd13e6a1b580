// FamiliarFollowers entity: for one account, the accounts you follow that also follow it.
import { t, type Static } from "elysia";
import type { Config } from "../config.ts";
import type { FamiliarFollowers } from "../domain/relationships/familiar.ts";
import { publicId } from "../lib/ids.ts";
import { AccountSchema, presentAccounts } from "./account.ts";

export const FamiliarFollowersSchema = t.Object(
  { id: t.String({ description: "The account asked about" }), accounts: t.Array(AccountSchema) },
  { description: "Mastodon FamiliarFollowers" },
);

export function presentFamiliarFollowers(config: Config, entry: FamiliarFollowers, viewerId: string): Static<typeof FamiliarFollowersSchema> {
  return { id: publicId(entry.id), accounts: presentAccounts(config, entry.accounts, viewerId) };
}
