// Stored media files under `<dataDir>/media`, published at `/system/…` (Mastodon's path). Records keep the
// public path ("/system/accounts/avatars/<accountId>/<random>.png"); entities make it absolute. File names
// are random and never reused, so a file's content never changes and may be cached forever.
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
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
 * Writes `data` durably under `folders` with a new random name and answers its public path. The file
 * appears complete or not at all: written and synced under a hidden temporary name, then renamed.
 */
export async function saveMediaFile(config: Config, folders: readonly string[], extension: string, data: Uint8Array): Promise<string> {
  if (!folders.every((f) => SAFE_SEGMENT.test(f)) || !/^[a-z0-9]+$/.test(extension)) throw new Error("unsafe media path");
  const dir = join(mediaRoot(config), ...folders);
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.${extension}`;
  const temporary = join(dir, `.${name}.tmp`);
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
  await rename(temporary, join(dir, name));
  await syncDirectory(dir);
  return MEDIA_URL_PREFIX + [...folders, name].join("/");
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

/** Whether the path names an existing regular file. */
export async function isFile(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isFile(), () => false);
}

/** Deletes a stored file, best effort: a failure is logged and leaves an orphan, never an error. */
export async function deleteMediaFile(config: Config, publicPath: string | null): Promise<void> {
  const target = publicPath ? mediaFileFor(config, publicPath) : null;
  if (!target) return;
  try {
    await unlink(target.file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") log.warn("media file not deleted", { path: publicPath, error: String(error) });
  }
}
