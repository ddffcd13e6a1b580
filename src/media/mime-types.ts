// What uploads may be: media/sniff.ts accepts exactly these, and the instance reports them
// (MEDIA_LIMITS.supportedMimeTypes in domain/limits.ts). Mastodon's list without HEIC, whose HEVC images this
// build of libvips cannot decode.
export const SUPPORTED_MIME_TYPES = [
  "image/jpeg", "image/png", "image/gif", "image/webp", "image/avif",
  "video/webm", "video/mp4", "video/quicktime", "video/ogg",
  "audio/wave", "audio/wav", "audio/x-wav", "audio/x-pn-wave", "audio/vnd.wave", "audio/ogg", "audio/vorbis",
  "audio/mpeg", "audio/mp3", "audio/webm", "audio/flac", "audio/aac", "audio/m4a", "audio/x-m4a", "audio/mp4",
  "audio/3gpp", "video/x-ms-asf",
] as const;
