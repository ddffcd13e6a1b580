// Instance (v2, and the deprecated v1), Rule and the small companions of /api/v1/instance/* (API.md §4.11):
// the only place instance facts become JSON. Every number comes from domain/limits.ts.
import { t, type Static } from "elysia";
import { Int } from "./integer.ts";
import type { Config } from "../config.ts";
import { publicId } from "../lib/ids.ts";
import { textToHtml } from "../lib/html.ts";
import { ACCOUNT_LIMITS, MASTODON_API_VERSION, MEDIA_LIMITS, POLL_LIMITS, REPORTED_VERSION, STATUS_LIMITS } from "../domain/limits.ts";
import { ICON_SIZES, THUMBNAIL_DESCRIPTION } from "../domain/instance/artwork.ts";
import { SOURCE_URL, type InstanceDescription, type InstanceFacts } from "../domain/instance/info.ts";
import type { PrivacyPolicy } from "../domain/instance/privacy-policy.ts";
import type { ActivityWeek } from "../domain/instance/activity.ts";
import { AccountSchema, presentAccount } from "./account.ts";
import { Nullable } from "./nullable.ts";
import type { RuleRecord } from "../model/instance.ts";

export const RuleSchema = t.Object(
  {
    id: t.String(),
    text: t.String(),
    hint: t.String({ description: "Longer explanation; empty when none" }),
    translations: t.Record(t.String(), t.Object({ text: t.String(), hint: t.String() }), { description: "Always {}" }),
  },
  { description: "Server rule" },
);

const StatusesConfig = t.Object({
  max_characters: Int(),
  max_media_attachments: Int(),
  characters_reserved_per_url: Int(),
});
const PollsConfig = t.Object({
  max_options: Int(),
  max_characters_per_option: Int(),
  min_expiration: Int({ description: "seconds" }),
  max_expiration: Int({ description: "seconds" }),
});
const mediaProperties = {
  supported_mime_types: t.Array(t.String()),
  image_size_limit: Int({ description: "bytes" }),
  image_matrix_limit: Int({ description: "pixels" }),
  video_size_limit: Int({ description: "bytes" }),
  video_matrix_limit: Int({ description: "pixels" }),
  video_frame_rate_limit: Int(),
};
const FeedAccess = t.Object({
  local: t.Union([t.Literal("public"), t.Literal("authenticated"), t.Literal("disabled")]),
  remote: t.Union([t.Literal("public"), t.Literal("authenticated"), t.Literal("disabled")]),
});

export const InstanceV2Schema = t.Object(
  {
    domain: t.String(),
    title: t.String(),
    version: t.String({ description: "Mastodon-compatible version, then Warren's" }),
    source_url: t.String(),
    description: t.String(),
    usage: t.Object({ users: t.Object({ active_month: Int() }) }),
    thumbnail: t.Object({
      url: t.String(),
      blurhash: Nullable(t.String()),
      versions: t.Object({ "@1x": t.String(), "@2x": t.String() }),
      description: t.String(),
    }),
    icon: t.Array(t.Object({ src: t.String(), size: t.String({ description: "WxH" }) })),
    languages: t.Array(t.String()),
    configuration: t.Object({
      urls: t.Object({
        streaming: t.String(),
        status: Nullable(t.String()),
        about: t.String(),
        privacy_policy: Nullable(t.String()),
        terms_of_service: Nullable(t.String()),
      }),
      vapid: t.Object({ public_key: t.String({ description: "The Web Push (VAPID) public key: applicationServerKey for push subscriptions" }) }),
      accounts: t.Object({
        max_display_name_length: Int(),
        max_note_length: Int(),
        max_avatar_description_length: Int(),
        max_header_description_length: Int(),
        max_featured_tags: Int(),
        max_pinned_statuses: Int(),
        max_profile_fields: Int(),
        profile_field_name_limit: Int(),
        profile_field_value_limit: Int(),
      }),
      statuses: StatusesConfig,
      media_attachments: t.Object({ description_limit: Int(), ...mediaProperties }),
      polls: PollsConfig,
      translation: t.Object({ enabled: t.Boolean() }),
      timelines_access: t.Object({ live_feeds: FeedAccess, hashtag_feeds: FeedAccess, trending_link_feeds: FeedAccess }),
      limited_federation: t.Boolean(),
    }),
    registrations: t.Object({
      enabled: t.Boolean(),
      approval_required: t.Boolean(),
      reason_required: t.Boolean(),
      message: Nullable(t.String()),
      min_age: Nullable(Int()),
      url: Nullable(t.String()),
    }),
    api_versions: t.Object({ mastodon: Int() }),
    contact: t.Object({ email: t.String(), account: Nullable(AccountSchema) }),
    rules: t.Array(RuleSchema),
    wrapstodon: Nullable(Int()),
  },
  { description: "Mastodon Instance (v2)" },
);

export const InstanceV1Schema = t.Object(
  {
    uri: t.String({ description: "The domain" }),
    title: t.String(),
    short_description: t.String(),
    description: t.String(),
    email: t.String(),
    version: t.String(),
    urls: t.Object({ streaming_api: t.String() }),
    stats: t.Object({ user_count: Int(), status_count: Int(), domain_count: Int() }),
    thumbnail: t.String(),
    languages: t.Array(t.String()),
    registrations: t.Boolean(),
    approval_required: t.Boolean(),
    invites_enabled: t.Boolean(),
    configuration: t.Object({
      accounts: t.Object({ max_featured_tags: Int() }),
      statuses: StatusesConfig,
      media_attachments: t.Object(mediaProperties),
      polls: PollsConfig,
    }),
    contact_account: Nullable(AccountSchema),
    rules: t.Array(RuleSchema),
  },
  { description: "Mastodon Instance (v1, deprecated)" },
);

export const ExtendedDescriptionSchema = t.Object(
  { updated_at: Nullable(t.String()), content: t.String({ description: "HTML" }) },
  { description: "ExtendedDescription (also the shape of the privacy policy)" },
);

export const ActivitySchema = t.Object(
  {
    week: t.String({ description: "Unix time (seconds) of Monday 00:00 UTC" }),
    statuses: t.String(),
    logins: t.String(),
    registrations: t.String(),
  },
  { description: "One week of activity (numbers as strings, as Mastodon sends them)" },
);

export const LanguageSchema = t.Object({ code: t.String(), name: t.String() }, { description: "Language" });

type InstanceV2 = Static<typeof InstanceV2Schema>;
type InstanceV1 = Static<typeof InstanceV1Schema>;
export type Rule = Static<typeof RuleSchema>;
type ExtendedDescription = Static<typeof ExtendedDescriptionSchema>;
type Activity = Static<typeof ActivitySchema>;

export function presentRule(rule: RuleRecord): Rule {
  return { id: publicId(rule.id), text: rule.text, hint: rule.hint, translations: {} };
}

export const thumbnailUrl = (config: Config, scale: 1 | 2 = 1) => `${config.url}/instance/thumbnail${scale === 2 ? "@2x" : ""}.png`;
export const iconUrl = (config: Config, size: number) => `${config.url}/instance/icons/${size}x${size}.png`;
const streamingUrl = (config: Config) => config.url.replace(/^http/, "ws");

const statusesConfig = () => ({
  max_characters: STATUS_LIMITS.maxCharacters,
  max_media_attachments: STATUS_LIMITS.maxMediaAttachments,
  characters_reserved_per_url: STATUS_LIMITS.charactersReservedPerUrl,
});
const pollsConfig = () => ({
  max_options: POLL_LIMITS.maxOptions,
  max_characters_per_option: POLL_LIMITS.maxCharactersPerOption,
  min_expiration: POLL_LIMITS.minExpiration,
  max_expiration: POLL_LIMITS.maxExpiration,
});
const mediaConfig = () => ({
  supported_mime_types: [...MEDIA_LIMITS.supportedMimeTypes],
  image_size_limit: MEDIA_LIMITS.imageSizeLimit,
  image_matrix_limit: MEDIA_LIMITS.imageMatrixLimit,
  video_size_limit: MEDIA_LIMITS.videoSizeLimit,
  video_matrix_limit: MEDIA_LIMITS.videoMatrixLimit,
  video_frame_rate_limit: MEDIA_LIMITS.videoFrameRateLimit,
});

export function presentInstanceV2(config: Config, facts: InstanceFacts): InstanceV2 {
  return {
    domain: config.domain,
    title: config.instanceTitle,
    version: REPORTED_VERSION,
    source_url: SOURCE_URL,
    description: facts.description.text,
    usage: { users: { active_month: facts.usage.activeMonth } },
    thumbnail: {
      url: thumbnailUrl(config),
      blurhash: facts.thumbnailBlurhash,
      versions: { "@1x": thumbnailUrl(config), "@2x": thumbnailUrl(config, 2) },
      description: THUMBNAIL_DESCRIPTION,
    },
    icon: ICON_SIZES.map((size) => ({ src: iconUrl(config, size), size: `${size}x${size}` })),
    languages: facts.languages,
    configuration: {
      urls: {
        streaming: streamingUrl(config),
        status: null,
        about: `${config.url}/about`,
        privacy_policy: `${config.url}/privacy-policy`,
        terms_of_service: null,
      },
      vapid: { public_key: facts.vapidPublicKey },
      accounts: {
        max_display_name_length: ACCOUNT_LIMITS.maxDisplayNameLength,
        max_note_length: ACCOUNT_LIMITS.maxNoteLength,
        max_avatar_description_length: ACCOUNT_LIMITS.maxAvatarDescriptionLength,
        max_header_description_length: ACCOUNT_LIMITS.maxHeaderDescriptionLength,
        max_featured_tags: ACCOUNT_LIMITS.maxFeaturedTags,
        max_pinned_statuses: ACCOUNT_LIMITS.maxPinnedStatuses,
        max_profile_fields: ACCOUNT_LIMITS.maxProfileFields,
        profile_field_name_limit: ACCOUNT_LIMITS.profileFieldNameLimit,
        profile_field_value_limit: ACCOUNT_LIMITS.profileFieldValueLimit,
      },
      statuses: statusesConfig(),
      media_attachments: { description_limit: MEDIA_LIMITS.descriptionLimit, ...mediaConfig() },
      polls: pollsConfig(),
      translation: { enabled: false },
      // Mastodon shows the topic settings for trending link feeds too.
      timelines_access: { live_feeds: facts.feedAccess.live, hashtag_feeds: facts.feedAccess.topic, trending_link_feeds: facts.feedAccess.topic },
      limited_federation: false,
    },
    registrations: {
      enabled: facts.registrations !== "closed",
      approval_required: facts.registrations === "approval",
      reason_required: false,
      message: null,
      min_age: null,
      url: null,
    },
    api_versions: { mastodon: MASTODON_API_VERSION },
    contact: { email: config.contactEmail, account: facts.contact ? presentAccount(config, facts.contact) : null },
    rules: facts.rules.map(presentRule),
    wrapstodon: null,
  };
}

/** `domainCount`: the known peers (v1 only; the v2 answer does not read them). */
export function presentInstanceV1(config: Config, facts: InstanceFacts, domainCount: number): InstanceV1 {
  return {
    uri: config.domain,
    title: config.instanceTitle,
    short_description: facts.description.text,
    description: facts.description.text,
    email: config.contactEmail,
    version: REPORTED_VERSION,
    urls: { streaming_api: streamingUrl(config) },
    stats: { user_count: facts.usage.total, status_count: facts.usage.localPosts, domain_count: domainCount },
    thumbnail: thumbnailUrl(config),
    languages: facts.languages,
    registrations: facts.registrations !== "closed",
    approval_required: facts.registrations === "approval",
    invites_enabled: false,
    configuration: {
      accounts: { max_featured_tags: ACCOUNT_LIMITS.maxFeaturedTags },
      statuses: statusesConfig(),
      media_attachments: mediaConfig(),
      polls: pollsConfig(),
    },
    contact_account: facts.contact ? presentAccount(config, facts.contact) : null,
    rules: facts.rules.map(presentRule),
  };
}

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The operator's description as HTML paragraphs ("" and null when never set). */
export function presentExtendedDescription(description: InstanceDescription): ExtendedDescription {
  return { updated_at: isoOrNull(description.updatedAt), content: description.text ? textToHtml(description.text) : "" };
}

export function presentPrivacyPolicy(policy: PrivacyPolicy): ExtendedDescription {
  return { updated_at: isoOrNull(policy.updatedAt), content: policy.html };
}

export function presentActivity(weeks: readonly ActivityWeek[]): Activity[] {
  return weeks.map((w) => ({
    week: String(w.week / 1000),
    statuses: String(w.statuses),
    logins: String(w.logins),
    registrations: String(w.registrations),
  }));
}
