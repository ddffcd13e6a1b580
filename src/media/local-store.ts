// Media files under `<dataDir>/media/<key>`, served by http/media-files.ts at `/system/<key>`. A file is
// written and synced under a hidden temporary name (dot files are never served), renamed into place, and its
// folder synced, so that it appears whole or not at all and survives a crash. Deletions go through the
// backup guard (backup/guard.ts), which sets a file aside while a backup runs.
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { removeStoredFile } from "../backup/guard.ts";
import type { Config } from "../config.ts";
import type { MediaStore, StoredObject } from "./media-store.ts";

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalMediaStore implements MediaStore {
  readonly kind = "local";
  readonly root: string;

  constructor(private readonly config: Config) {
    this.root = join(config.dataDir, "media");
  }

  fileOf(key: string): string {
    return join(this.root, ...key.split("/"));
  }

  /** `place(target)` puts the complete, synced file at `target` with one rename; the folder is synced after. */
  private async place(key: string, place: (target: string) => Promise<void>): Promise<void> {
    const target = this.fileOf(key);
    await mkdir(dirname(target), { recursive: true });
    await place(target);
    await syncDirectory(dirname(target));
  }

  write(key: string, data: Uint8Array): Promise<void> {
    return this.place(key, async (target) => {
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

  adopt(key: string, file: string): Promise<void> {
    return this.place(key, async (target) => {
      const handle = await open(file, "r+"); // also refuses a directory
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(file, target);
    });
  }

  async read(key: string): Promise<Uint8Array | null> {
    return readFile(this.fileOf(key)).catch(() => null);
  }

  async stat(key: string): Promise<{ size: number; modified: Date } | null> {
    const stats = await stat(this.fileOf(key)).catch(() => null);
    return stats?.isFile() ? { size: stats.size, modified: stats.mtime } : null;
  }

  delete(key: string): Promise<void> {
    return removeStoredFile(this.config.dataDir, this.fileOf(key));
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    // Walks only the folders the prefix can reach; dot files (temporaries) are not stored files.
    const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
    const walk = async function* (self: LocalMediaStore, relative: string): AsyncIterable<StoredObject> {
      const entries = await readdir(join(self.root, relative), { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (entry.name.startsWith(".")) continue;
        const key = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (key.startsWith(prefix) || prefix.startsWith(`${key}/`)) yield* walk(self, key);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          const stats = await stat(join(self.root, relative, entry.name)).catch(() => null);
          if (stats) yield { key, size: stats.size };
        }
      }
    };
    yield* walk(this, folder);
  }

  publicUrl(key: string): string {
    return `${this.config.url}/system/${key}`;
  }
}
