// Stored media files: avatars, headers, status attachments (images, video, audio) and custom emoji, in the
// configured MediaStore (store.ts: `<dataDir>/media`, published at `/system/…` as Mastodon does, or an S3
// bucket). Records keep the public path ("/system/accounts/avatars/<accountId>/<random>.png"); mediaUrl makes
// it absolute (in the bucket's public URL with object storage). A file arrives either as bytes
// (saveMediaFile) or as a file already written under the data dir (adoptMediaFile, e.g. a transcoder's
// output); both give it a new random name. Names are never reused, so a file's content never changes and
// may be cached forever. Only the extensions in CONTENT_TYPES are stored and served (http/media-files.ts).
import { randomBytes } from "node:crypto";
import { statSync, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";
import { mediaStore } from "./store.ts";

export const MEDIA_URL_PREFIX = "/system/";

const CONTENT_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
};

export function mediaRoot(config: Config): string {
  return join(config.dataDir, "media");
}

/** A path segment we create or serve: no separators, no dot files (temporaries), no `..`. */
const SAFE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The content type stored media of this file name are sent with, or undefined for names we never write. */
export const contentTypeOf = (name: string): string | undefined => CONTENT_TYPES[extname(name).toLowerCase()];

/** Checks the folders and extension, and gives the file a new random name: its key in the store. */
function newKey(folders: readonly string[], extension: string): string {
  if (!folders.every((f) => SAFE_SEGMENT.test(f)) || !/^[a-z0-9]+$/.test(extension)) throw new Error("unsafe media path");
  return [...folders, `${randomBytes(16).toString("hex")}.${extension}`].join("/");
}

/** Writes `data` durably under `folders` with a new random name and answers its public path. */
export async function saveMediaFile(config: Config, folders: readonly string[], extension: string, data: Uint8Array): Promise<string> {
  const key = newKey(folders, extension);
  await mediaStore(config).write(key, data, contentTypeOf(key) ?? "application/octet-stream");
  return MEDIA_URL_PREFIX + key;
}

/**
 * Moves an existing file (under the data dir, so that locally the rename stays on one filesystem) into
 * storage under `folders` with a new random name, durably, and answers its public path — as saveMediaFile
 * does for bytes.
 */
export async function adoptMediaFile(config: Config, folders: readonly string[], extension: string, sourceFile: string): Promise<string> {
  const source = resolve(sourceFile);
  if (!source.startsWith(resolve(config.dataDir) + sep)) throw new Error("media file to adopt is outside the data directory");
  const key = newKey(folders, extension);
  await mediaStore(config).adopt(key, source, contentTypeOf(key) ?? "application/octet-stream");
  return MEDIA_URL_PREFIX + key;
}

/**
 * The store key behind a public path (`/system/…`, percent-encoded as in a URL) with its content type, or
 * null when the path is not one we could have written (a segment that is not safe, an unknown extension).
 */
export function mediaKey(publicPath: string): { key: string; contentType: string } | null {
  if (!publicPath.startsWith(MEDIA_URL_PREFIX)) return null;
  let segments: string[];
  try {
    segments = publicPath.slice(MEDIA_URL_PREFIX.length).split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
  if (!segments.every((s) => SAFE_SEGMENT.test(s) && !s.includes(".."))) return null;
  const contentType = contentTypeOf(segments[segments.length - 1]!);
  return contentType ? { key: segments.join("/"), contentType } : null;
}

/**
 * The absolute URL of a stored file's public path (in the bucket's public URL with object storage), a
 * site path made absolute, or a remote URL as it is; null stays null.
 */
export function mediaUrl(config: Config, path: string | null): string | null {
  if (path === null) return null;
  if (!path.startsWith("/")) return path;
  const target = config.s3 ? mediaKey(path) : null;
  return target ? mediaStore(config).publicUrl(target.key) : `${config.url}${path}`;
}

/**
 * The local file behind a public path with its content type (the data directory's store, whatever the
 * configuration), or null when the path is not one we could have written: nothing can leave the media root.
 */
export function mediaFileFor(config: Config, publicPath: string): { file: string; contentType: string } | null {
  const target = mediaKey(publicPath);
  if (!target) return null;
  const root = resolve(mediaRoot(config));
  const file = resolve(root, ...target.key.split("/"));
  return file.startsWith(root + sep) ? { file, contentType: target.contentType } : null;
}

export interface StoredMediaFile {
  file: string;
  contentType: string;
  size: number;
  modified: Date;
}

function withStats(target: { file: string; contentType: string } | null, stats: Stats | null): StoredMediaFile | null {
  return target && stats?.isFile() ? { ...target, size: stats.size, modified: stats.mtime } : null;
}

/** The local file behind a public path with its size and time, or null when it is missing or refused. */
export async function mediaFileInfo(config: Config, publicPath: string): Promise<StoredMediaFile | null> {
  const target = mediaFileFor(config, publicPath);
  return withStats(target, target && (await stat(target.file).catch(() => null)));
}

/** mediaFileInfo with one blocking stat, for a synchronous caller (HEAD in http/media-files.ts answers before routing). */
export function mediaFileInfoSync(config: Config, publicPath: string): StoredMediaFile | null {
  const target = mediaFileFor(config, publicPath);
  try {
    return withStats(target, target && statSync(target.file));
  } catch {
    return null;
  }
}

/** The size in bytes of the stored file behind a public path (in the configured store), or null when there is none. */
export async function mediaFileSize(config: Config, publicPath: string): Promise<number | null> {
  const target = mediaKey(publicPath);
  return target ? ((await mediaStore(config).stat(target.key))?.size ?? null) : null;
}

/**
 * Deletes a stored file or object (a local file is set aside while a backup runs: backup/guard.ts), best
 * effort: a failure is logged and leaves an orphan, never an error. Called only once the record that referred to it is gone.
 */
export async function deleteMediaFile(config: Config, publicPath: string | null): Promise<void> {
  const target = publicPath ? mediaKey(publicPath) : null;
  if (!target) return;
  try {
    await mediaStore(config).delete(target.key);
  } catch (error) {
    log.warn("media file not deleted", { path: publicPath, error: String(error) });
  }
}
