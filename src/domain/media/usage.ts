// `warren media usage`: the bytes stored under data/media, by what they are — attachments of local uploads,
// copies of remote attachments, avatars and headers of local and of remote accounts, copies of remote custom
// emojis, anything else (local custom emojis…) — counted from the files on disk, each attributed by the record its folder is named after.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getAccount } from "../../store/accounts.ts";
import { getMedia } from "../../store/media.ts";
import { mediaRoot } from "../../media/storage.ts";

export type UsageKind =
  | "local attachments" | "remote attachments" | "local avatars and headers" | "remote avatars and headers" | "remote custom emojis" | "other";
export type MediaUsage = Record<UsageKind, { files: number; bytes: number }>;

async function* filesUnder(dir: string): AsyncGenerator<{ path: string[]; size: number }> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith(".")) continue;
    const full = join(entry.parentPath, entry.name);
    const size = (await stat(full).catch(() => null))?.size ?? 0;
    yield { path: full.slice(dir.length + 1).split(/[\\/]/), size };
  }
}

function kindOf(store: Store, path: string[]): UsageKind {
  const [top, folder] = path;
  if (top === "media_attachments" && path[2]) {
    const media = getMedia(store, path[2]);
    return media?.remoteUrl ? "remote attachments" : "local attachments";
  }
  if (top === "accounts" && (folder === "avatars" || folder === "headers") && path[2]) {
    return getAccount(store, path[2])?.domain ? "remote avatars and headers" : "local avatars and headers";
  }
  // Copies of other servers' emoji images (media/remote-emojis.ts).
  if (top === "cache" && folder === "custom_emojis") return "remote custom emojis";
  return "other";
}

export async function mediaUsage(store: Store, config: Config): Promise<MediaUsage> {
  const usage: MediaUsage = {
    "local attachments": { files: 0, bytes: 0 },
    "remote attachments": { files: 0, bytes: 0 },
    "local avatars and headers": { files: 0, bytes: 0 },
    "remote avatars and headers": { files: 0, bytes: 0 },
    "remote custom emojis": { files: 0, bytes: 0 },
    other: { files: 0, bytes: 0 },
  };
  for await (const file of filesUnder(mediaRoot(config))) {
    const entry = usage[kindOf(store, file.path)];
    entry.files++;
    entry.bytes += file.size;
  }
  return usage;
}
