// Media attachments and custom emojis.
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

/** A custom emoji of another server, as its Note or actor tags it (federation/note-emojis.ts). */
export interface RemoteEmoji {
  shortcode: string;
  url: string;
  staticUrl: string;
  /** The image's remote URL when `url` and `staticUrl` are the paths of its copy here (domain/media/remote-emojis.ts). */
  remoteUrl?: string;
}

export type MediaType = "image" | "gifv" | "video" | "audio";

/** Images are ready when uploaded; video, gifv and audio are `processing` until their job has run. */
export type MediaState = "processing" | "ready" | "failed";

export interface Focus {
  x: number;
  y: number;
}

export interface MediaRecord {
  v: 1;
  /** snowflake; also its upload time */
  id: string;
  accountId: string;
  type: MediaType;
  state: MediaState;
  /** Public paths (media/storage.ts) of the processed file and its preview; null until processed. */
  fileUrl: string | null;
  previewUrl: string | null;
  /** A preview the uploader gave (`thumbnail`), shown instead of the generated one. */
  thumbnailUrl: string | null;
  /** The upload waiting for its job, under the data dir's incoming folder (media/incoming.ts). */
  pendingFile: string | null;
  contentType: string | null;
  fileSize: number;
  /** Mastodon's `meta` without `focus` (original, small, video facts, colors). */
  meta: Record<string, unknown>;
  focus: Focus | null;
  description: string | null;
  blurhash: string | null;
  /** Why processing failed (shown as the 422 of GET /api/v1/media/:id). */
  error: string | null;
  statusId: string | null;
  /** Since when it is on no status: its upload, or the deletion of the status it was on (redraft). */
  unattachedSince: number | null;
  createdAt: number;
  /** An attachment of a status from another server: the file there (kept here too once fetched). */
  remoteUrl?: string;
  /** Remote attachments: when the copy in fileUrl was fetched (domain/media/remote-cache.ts); absent: not kept. */
  remoteCachedAt?: number;
  /** Remote attachments from a domain whose block rejects media: never fetched, shown as a link (`unknown`). */
  mediaRejected?: boolean;
}

export interface CustomEmojiRecord {
  v: 1;
  shortcode: string;
  /** paths under the media directory: the image as imported, and its first frame (PNG) */
  file: string;
  staticFile: string;
  category: string | null;
  visibleInPicker: boolean;
  createdAt: number;
}

export interface RemoteEmojiCopy {
  v: 1;
  /** the remote image URL (also the key) */
  url: string;
  /** paths under the media directory once fetched: the image as sent, and its first frame (PNG); null before */
  file: string | null;
  staticFile: string | null;
  /** when its fetch was last queued (ms) */
  queuedAt: number;
  /** when the copy was kept (ms); null before */
  cachedAt: number | null;
}
