// Notification policy (Mastodon 4.3+, v2; docs/notifications.md): what happens to notifications from each
// category of sender, with the pending requests it made.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { policyOf, policySummary, updatePolicy, type PolicyChanges } from "../../../domain/notifications/policy.ts";
import { NotificationPolicySchema, PolicyValueSchema, presentNotificationPolicy } from "../../../entities/notification-policy.ts";
import { authPlugin } from "../../plugins/auth.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { authErrors } from "../../schemas.ts";

const value = (description: string) => t.Optional({ ...PolicyValueSchema, description: `${description}: accept, filter or drop` });

const PolicyBody = t.Object({
  for_not_following: value("Accounts you do not follow"),
  for_not_followers: value("Accounts that have not followed you for 3 days"),
  for_new_accounts: value("Accounts created in the last 30 days"),
  for_private_mentions: value("Private mentions that do not answer yours, from accounts you do not follow"),
  for_limited_accounts: value("Accounts limited by the moderators"),
  for_bots: value("Automated accounts you do not follow"),
});

export const notificationPolicyRoutes = (deps: Deps) =>
  new Elysia({ name: "notification-policy-routes", seed: deps.store.dir })
    .use(authPlugin(deps))
    .use(cachePlugin)
    .get(
      "/api/v2/notifications/policy",
      ({ viewer }) => presentNotificationPolicy(policyOf(deps.store, viewer.account.id), policySummary(deps.store, viewer.account.id)),
      {
        auth: ["read:notifications"],
        response: { 200: NotificationPolicySchema, ...authErrors },
        detail: { summary: "Your notification policy and its pending requests", tags: ["notifications"] },
      },
    )
    // Rails' `resource :policy, only: [:show, :update]` answers PATCH and PUT alike; masto.js sends PUT.
    .patch("/api/v2/notifications/policy", ({ viewer, body }) => changePolicy(deps, viewer.account.id, body), {
      ...UPDATE_OPTIONS,
      detail: { summary: "Change your notification policy (filtering applies to notifications from now on)", tags: ["notifications"] },
    })
    .put("/api/v2/notifications/policy", ({ viewer, body }) => changePolicy(deps, viewer.account.id, body), {
      ...UPDATE_OPTIONS,
      detail: { summary: "Change your notification policy (PUT: the same as PATCH)", tags: ["notifications"] },
    });

const UPDATE_OPTIONS = {
  auth: ["write:notifications"],
  body: PolicyBody,
  response: { 200: NotificationPolicySchema, ...authErrors },
} as const;

async function changePolicy(deps: Deps, accountId: string, body: typeof PolicyBody.static) {
  const changes: PolicyChanges = {
    forNotFollowing: body.for_not_following,
    forNotFollowers: body.for_not_followers,
    forNewAccounts: body.for_new_accounts,
    forPrivateMentions: body.for_private_mentions,
    forLimitedAccounts: body.for_limited_accounts,
    forBots: body.for_bots,
  };
  for (const key of Object.keys(changes) as (keyof PolicyChanges)[]) if (changes[key] === undefined) delete changes[key];
  const policy = await updatePolicy(deps, accountId, changes);
  return presentNotificationPolicy(policy, policySummary(deps.store, accountId));
}
