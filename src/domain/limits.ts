// Every number the instance reports and enforces. The instance endpoints read from here and so do the
// validators, so what is reported is what is enforced.
import { SUPPORTED_MIME_TYPES } from "../media/mime-types.ts";

export const STATUS_LIMITS = {
  maxCharacters: 500,
  maxMediaAttachments: 4,
  charactersReservedPerUrl: 23,
} as const;

export const MEDIA_LIMITS = {
  // The mission spec's media description limit (API.md §10 gives 1 500 for 4.5).
  descriptionLimit: 1500,
  imageSizeLimit: 16 * 1024 * 1024,
  imageMatrixLimit: 7680 * 4320,
  videoSizeLimit: 99 * 1024 * 1024,
  // Mastodon's MAX_VIDEO_MATRIX_LIMIT, MAX_VIDEO_FRAME_RATE and MAX_VIDEO_FRAMES: past them a video (or an
  // animated GIF, which becomes one) is refused before it is decoded.
  videoMatrixLimit: 3840 * 2160,
  videoFrameRateLimit: 120,
  videoFramesLimit: 36_000,
  /** Warren's own: the pixels of all the frames of an animated image together (5,000 frames of 1000×1000 took
   * 25 CPU-seconds to convert; this much takes about 5). */
  animationPixelsLimit: 1_000_000_000,
  /** Longer video or audio is refused (Mastodon has no such limit; its size limit makes about the same). */
  maxDurationSeconds: 3 * 3600,
  /** Each ffprobe run and the preview frame's ffmpeg run; a transcode has its own budget (config). */
  probeTimeoutMs: 30_000,
  /** What uploads may be (media/sniff.ts accepts exactly these). */
  supportedMimeTypes: SUPPORTED_MIME_TYPES,
} as const;

export const ACCOUNT_LIMITS = {
  maxUsernameLength: 30,
  maxDisplayNameLength: 30,
  maxNoteLength: 500,
  maxAvatarDescriptionLength: 150,
  maxHeaderDescriptionLength: 150,
  /** Mastodon's Account::Avatar AVATAR_LIMIT (libvips) and AVATAR_DIMENSIONS: cropped square, 400 px at most */
  avatarSizeLimit: 8 * 1024 * 1024,
  avatarSide: 400,
  /** Mastodon's Account::Header HEADER_LIMIT and HEADER_MAX_PIXELS (1500×500), aspect ratio kept */
  headerSizeLimit: 8 * 1024 * 1024,
  headerMaxPixels: 1500 * 500,
  maxFeaturedTags: 10,
  maxPinnedStatuses: 5,
  maxProfileFields: 4,
  profileFieldNameLimit: 255,
  profileFieldValueLimit: 255,
  minPasswordLength: 8,
  maxPasswordLength: 72,
  maxEmailLength: 320,
} as const;

export const POLL_LIMITS = {
  maxOptions: 4,
  maxCharactersPerOption: 50,
  minExpiration: 300,
  maxExpiration: 2_629_746,
} as const;

export const RELATIONSHIP_LIMITS = {
  /** private note on another account (Mastodon's AccountNote::COMMENT_SIZE_LIMIT) */
  maxNoteLength: 2000,
  /** longest mute `duration` accepted, in seconds (about 100 years) */
  maxMuteDurationSeconds: 3_155_760_000,
} as const;

export const LIST_LIMITS = {
  /** Mastodon's List::PER_ACCOUNT_LIMIT and TITLE_LENGTH_LIMIT */
  maxListsPerAccount: 50,
  maxTitleLength: 256,
} as const;

export const APP_LIMITS = {
  maxNameLength: 60,
  maxRedirectUrisLength: 2000,
  maxWebsiteLength: 2000,
} as const;

/** Mastodon 4.6's Collection validations and the default role's `collection_limit`. */
export const COLLECTION_LIMITS = {
  maxNameLength: 40,
  maxDescriptionLength: 100,
  /** Collection::MAX_ITEMS (pending and accepted items) */
  maxItems: 25,
  maxCollectionsPerAccount: 10,
  /** GET /api/v1/accounts/:id/collections: 40 by default, 80 at most (offset paging) */
  defaultPageSize: 40,
  maxPageSize: 80,
} as const;

export const RULE_LIMITS = {
  /** Mastodon's Rule::TEXT_SIZE_LIMIT (the hint has no limit there either) */
  maxTextLength: 300,
} as const;

/** Mastodon API version this server implements (`api_versions.mastodon`): 10, Mastodon 4.6's, collections included. */
export const MASTODON_API_VERSION = 10;
import { WARREN_VERSION } from "../lib/version.ts";
/** Version string reported to clients, in Mastodon's form so that feature detection works (lib/version.ts). */
export { REPORTED_VERSION, WARREN_VERSION as SOFTWARE_VERSION } from "../lib/version.ts";
/** The User-Agent of every request Warren makes (deliveries, fetches, link cards, push, WebFinger): servers log
 * and block by it, so it names the software and the instance. */
export const warrenUserAgent = (instanceUrl: string) => `Warren/${WARREN_VERSION} (+${instanceUrl}/)`;
