// Stored media files under `<dataDir>/media`, published at `/system/…` (Mastodon's path): avatars, headers
// and status attachments (images, video, audio). Records keep the public path
// ("/system/accounts/avatars/<accountId>/<random>.png"); entities make it absolute. A file arrives either as
// bytes (saveMediaFile) or as a file already written under the data dir (adoptMediaFile, e.g. a transcoder's
// output); both give it a new random name. Names are never reused, so a file's content never changes and
// may be cached forever. Only the extensions in CONTENT_TYPES are served (http/media-files.ts).
import { randomBytes } from "node:crypto";
import { statSync, type Stats } from "node:fs";
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { removeStoredFile } from "../backup/guard.ts";
import { basename, dirname, extname, join, resolve, sep } from "node:path";
import type { Config } from "../config.ts";
import { log } from "../lib/log.ts";

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

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Gives a file a new random name under `folders` and answers its public path. `place(target)` must put the
 * complete, synced file at `target` with one rename, so that it appears whole or not at all; the directory
 * is synced afterwards so the new name survives a crash too.
 */
async function storeMediaFile(
  config: Config,
  folders: readonly string[],
  extension: string,
  place: (target: string) => Promise<void>,
): Promise<string> {
  if (!folders.every((f) => SAFE_SEGMENT.test(f)) || !/^[a-z0-9]+$/.test(extension)) throw new Error("unsafe media path");
  const dir = join(mediaRoot(config), ...folders);
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.${extension}`;
  await place(join(dir, name));
  await syncDirectory(dir);
  return MEDIA_URL_PREFIX + [...folders, name].join("/");
}

/** Writes `data` durably under `folders` with a new random name and answers its public path. */
export async function saveMediaFile(config: Config, folders: readonly string[], extension: string, data: Uint8Array): Promise<string> {
  return storeMediaFile(config, folders, extension, async (target) => {
    // Written and synced under a hidden temporary name (dot files are never served), then renamed.
    const temporary = join(dirname(target), `.${basename(target)}.tmp`);
    const handle = await open(temporary, "wx");
    try {
      await handle.writeFile(data);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await unlink(temporary).catch(() => {});
      throw error;
    }
    await handle.close();
    await rename(temporary, target);
  });
}

/**
 * Moves an existing file (under the data dir, so the rename stays on one filesystem) into storage under
 * `folders` with a new random name, durably (fsync file and directory), and answers its public path — as
 * saveMediaFile does for bytes.
 */
export async function adoptMediaFile(config: Config, folders: readonly string[], extension: string, sourceFile: string): Promise<string> {
  const source = resolve(sourceFile);
  if (!source.startsWith(resolve(config.dataDir) + sep)) throw new Error("media file to adopt is outside the data directory");
  return storeMediaFile(config, folders, extension, async (target) => {
    const handle = await open(source, "r+"); // also refuses a directory
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(source, target);
  });
}

/**
 * The file behind a public path (`/system/…`, percent-encoded as in a URL) with its content type, or null
 * when the path is not one we could have written: anything that could leave the media root is refused.
 */
export function mediaFileFor(config: Config, publicPath: string): { file: string; contentType: string } | null {
  if (!publicPath.startsWith(MEDIA_URL_PREFIX)) return null;
  let segments: string[];
  try {
    segments = publicPath.slice(MEDIA_URL_PREFIX.length).split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
  if (!segments.every((s) => SAFE_SEGMENT.test(s) && !s.includes(".."))) return null;
  const contentType = CONTENT_TYPES[extname(segments[segments.length - 1]!).toLowerCase()];
  const root = resolve(mediaRoot(config));
  const file = resolve(root, ...segments);
  if (!contentType || !file.startsWith(root + sep)) return null;
  return { file, contentType };
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

/** The stored file behind a public path with its size and time, or null when it is missing or refused. */
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

/** The size in bytes of the stored file behind a public path, or null when there is none. */
export async function mediaFileSize(config: Config, publicPath: string): Promise<number | null> {
  return (await mediaFileInfo(config, publicPath))?.size ?? null;
}

/**
 * Deletes a stored file (set aside while a backup runs: backup/guard.ts), best effort: a failure is logged
 * and leaves an orphan, never an error. Called only once the record that referred to it is gone.
 */
export async function deleteMediaFile(config: Config, publicPath: string | null): Promise<void> {
  const target = publicPath ? mediaFileFor(config, publicPath) : null;
  if (!target) return;
  try {
    await removeStoredFile(config.dataDir, target.file);
  } catch (error) {
    log.warn("media file not deleted", { path: publicPath, error: String(error) });
  }
}
