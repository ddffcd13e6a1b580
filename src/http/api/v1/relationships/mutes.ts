// Mutes: POST /api/v1/accounts/:id/mute | unmute and GET /api/v1/mutes (accounts with mute_expires_at).
import { Elysia, t } from "elysia";
import type { Deps } from "../../../../deps.ts";
import { RELATIONSHIP_LIMITS } from "../../../../domain/limits.ts";
import { mutesPage } from "../../../../domain/relationships/lists.ts";
import { muteAccount, unmuteAccount } from "../../../../domain/relationships/mute.ts";
import { AccountSchema } from "../../../../entities/account.ts";
import { presentRelationship, RelationshipSchema } from "../../../../entities/relationship.ts";
import { Unprocessable } from "../../../../lib/errors.ts";
import { authPlugin } from "../../../plugins/auth.ts";
import { pageQuery } from "../../../plugins/paging.ts";
import { authErrors, Flag, Nullable, toBool } from "../../../schemas.ts";
import { accountList, AccountIdParams, actionErrors, LIST_LIMIT, ListQuery } from "./shared.ts";

const MuteBody = t.Object({
  notifications: t.Optional(Flag({ description: "Also hide their notifications (default true)" })),
  duration: t.Optional(t.String({ pattern: "^\\s*\\d*\\s*$", description: "Seconds until the mute ends; 0 or empty = until unmuted" })),
});

const MutedAccountSchema = t.Composite([AccountSchema, t.Object({ mute_expires_at: Nullable(t.String({ description: "ISO 8601; null = never" })) })], {
  description: "Mastodon Account with mute_expires_at",
});

function durationSeconds(raw: string | undefined): number {
  const seconds = raw === undefined ? 0 : Number(raw.trim());
  if (seconds > RELATIONSHIP_LIMITS.maxMuteDurationSeconds) {
    throw new Unprocessable(`Validation failed: duration must be at most ${RELATIONSHIP_LIMITS.maxMuteDurationSeconds} seconds`);
  }
  return seconds;
}

const relationshipResponse = { 200: RelationshipSchema, ...actionErrors };

export const muteRoutes = (deps: Deps) =>
  new Elysia({ name: "relationship-mute-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .post(
      "/api/v1/accounts/:id/mute",
      async ({ viewer, params, body }) => {
        const options = { notifications: toBool(body?.notifications, true), durationSeconds: durationSeconds(body?.duration) };
        return presentRelationship(await muteAccount(deps, viewer.account, params.id, options));
      },
      {
        auth: ["write:mutes"],
        params: AccountIdParams,
        body: MuteBody,
        response: relationshipResponse,
        detail: { summary: "Mute an account, optionally for a time; again to change the options", tags: ["relationships"] },
      },
    )
    .post("/api/v1/accounts/:id/unmute", async ({ viewer, params }) => presentRelationship(await unmuteAccount(deps, viewer.account, params.id)), {
      auth: ["write:mutes"],
      params: AccountIdParams,
      response: relationshipResponse,
      detail: { summary: "Unmute an account", tags: ["relationships"] },
    })
    .get(
      "/api/v1/mutes",
      ({ viewer, query, request, set }) =>
        accountList(deps, request, set, mutesPage(deps, viewer.account.id, pageQuery(query, LIST_LIMIT)), viewer.account.id, (entry, account) => ({
          ...account,
          mute_expires_at: entry.muteExpiresAt ? new Date(entry.muteExpiresAt).toISOString() : null,
        })),
      {
        auth: ["read:mutes"],
        query: ListQuery,
        response: { 200: t.Array(MutedAccountSchema), ...authErrors },
        detail: { summary: "Accounts you mute (with mute_expires_at), paged by mute id", tags: ["relationships"] },
      },
    );
