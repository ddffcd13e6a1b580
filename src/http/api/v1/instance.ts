// GET /api/v1/instance (deprecated shape) and the companions clients call at start-up: rules, peers,
// activity, extended description, privacy policy, languages, translation languages, custom emojis.
// No authentication (a token, even a bad one, is ignored); every answer is public and cacheable.
import { Elysia, t } from "elysia";
import type { Deps } from "../../../deps.ts";
import { instanceDescription, instanceFacts, knownPeers } from "../../../domain/instance/info.ts";
import { instanceRules } from "../../../domain/instance/rules.ts";
import { weeklyActivity } from "../../../domain/instance/activity.ts";
import { statusLanguages } from "../../../domain/instance/languages.ts";
import { privacyPolicy } from "../../../domain/instance/privacy-policy.ts";
import {
  ActivitySchema,
  ExtendedDescriptionSchema,
  InstanceV1Schema,
  LanguageSchema,
  RuleSchema,
  presentActivity,
  presentExtendedDescription,
  presentInstanceV1,
  presentPrivacyPolicy,
  presentRule,
} from "../../../entities/instance.ts";
import { cachePlugin } from "../../plugins/cache.ts";
import { INSTANCE_CACHE } from "../v2/instance.ts";

/** GET /api/v1/instance was deprecated on 2022-11-14 (Mastodon 4.0) in favour of /api/v2/instance. */
const DEPRECATED_SINCE = "@1668384000";
/** Mastodon caches peers and activity for a day. */
const DAY_CACHE = { seconds: 86_400, always: true };
const tags = ["instance"];

export const instanceV1Routes = (deps: Deps) =>
  new Elysia({ name: "instance-v1-routes" })
    .use(cachePlugin)
    .get(
      "/api/v1/instance",
      ({ set }) => {
        set.headers["deprecation"] = DEPRECATED_SINCE;
        return presentInstanceV1(deps.config, instanceFacts(deps), knownPeers(deps).length);
      },
      {
        publicCache: INSTANCE_CACHE,
        response: { 200: InstanceV1Schema },
        detail: { summary: "Instance information (deprecated: use /api/v2/instance)", tags, deprecated: true },
      },
    )
    .get("/api/v1/instance/rules", () => instanceRules(deps).map(presentRule), {
      publicCache: INSTANCE_CACHE,
      response: { 200: t.Array(RuleSchema) },
      detail: { summary: "Server rules", tags },
    })
    .get("/api/v1/instance/peers", () => knownPeers(deps), {
      publicCache: DAY_CACHE,
      response: { 200: t.Array(t.String({ description: "domain" })) },
      detail: { summary: "Domains of the remote accounts this server knows", tags },
    })
    .get("/api/v1/instance/activity", () => presentActivity(weeklyActivity(deps)), {
      publicCache: DAY_CACHE,
      response: { 200: t.Array(ActivitySchema) },
      detail: { summary: "Statuses, logins and registrations of the last 12 weeks, newest first", tags },
    })
    .get("/api/v1/instance/extended_description", () => presentExtendedDescription(instanceDescription(deps)), {
      publicCache: INSTANCE_CACHE,
      response: { 200: ExtendedDescriptionSchema },
      detail: { summary: "The operator's description of the server, as HTML", tags },
    })
    .get("/api/v1/instance/privacy_policy", () => presentPrivacyPolicy(privacyPolicy(deps.config)), {
      publicCache: INSTANCE_CACHE,
      response: { 200: ExtendedDescriptionSchema },
      detail: { summary: "The privacy policy, as HTML", tags },
    })
    .get("/api/v1/instance/languages", () => statusLanguages(), {
      publicCache: INSTANCE_CACHE,
      response: { 200: t.Array(LanguageSchema) },
      detail: { summary: "Languages a status may be tagged with (ISO 639-1)", tags },
    })
    .get("/api/v1/instance/translation_languages", () => ({}), {
      publicCache: INSTANCE_CACHE,
      response: { 200: t.Record(t.String(), t.Array(t.String()), { description: "Always {}: no translation service" }) },
      detail: { summary: "Translation language pairs (none: translation is not offered)", tags },
    });
