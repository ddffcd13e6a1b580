// `warren media usage`: the files under data/media, per top folder (media_attachments, emojis, incoming …):
// how many and how many bytes, walked from the disk (what the disk holds, whatever the records say).
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import { mediaRoot } from "../../media/storage.ts";

export interface FolderUsage {
  folder: string;
  files: number;
  bytes: number;
}

/** Files and bytes per top folder of the media directory, largest first; `onFolder` hears folders walked. */
export async function mediaUsage(config: Config, onFolder?: (done: number, total: number) => void): Promise<FolderUsage[]> {
  const root = mediaRoot(config);
  const folders = (await readdir(root, { withFileTypes: true }).catch(() => [])).filter((entry) => entry.isDirectory());
  const out: FolderUsage[] = [];
  for (const [index, folder] of folders.entries()) {
    const usage: FolderUsage = { folder: folder.name, files: 0, bytes: 0 };
    await addFiles(join(root, folder.name), usage);
    out.push(usage);
    onFolder?.(index + 1, folders.length);
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

async function addFiles(dir: string, usage: FolderUsage): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await addFiles(path, usage);
    else if (entry.isFile()) {
      usage.files++;
      usage.bytes += (await stat(path)).size;
    }
  }
}
