// A file the backup's snapshot refers to is in the backup even when its deletion runs between the snapshot
// and the copying of files: an upload is deleted (DELETE /api/v1/media/:id: record, then files) right after
// the database was copied. The backup still holds the picture, an instance restored from it serves it, and
// the live data directory ends without the file, the marker or the set-aside folder.
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeBackup } from "../../src/backup/write.ts";
import { restoreBackup } from "../../src/backup/restore.ts";
import { mediaFileFor } from "../../src/media/storage.ts";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { file, multipart, solidImage, startMediaApp } from "../helpers/media.ts";

setDefaultTimeout(60_000);
const root = mkdtempSync(join(tmpdir(), "warren-backup-deletions-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const QUIET = { update() {}, finish() {} };

test("media deleted while a backup runs are in the backup, and gone from the data directory after it", async () => {
  const { t, alice } = await startMediaApp(["alice"]);
  let restored: TestApp | null = null;
  try {
    const upload = await t.request("/api/v2/media", { method: "POST", token: alice.token, body: multipart({ file: file(await solidImage(32, 32, "#c33"), "red.jpg", "image/jpeg") }) });
    expect(upload.status).toBe(200);
    const media = (await upload.json()) as { id: string; url: string };
    const path = new URL(media.url).pathname;
    const stored = mediaFileFor(t.deps.config, path)!.file;
    const picture = readFileSync(stored);

    const backup = join(root, "backup");
    await writeBackup(t.deps.store, backup, {
      media: "copy",
      progress: () => QUIET,
      afterSnapshot: async () => {
        expect((await t.request(`/api/v1/media/${media.id}`, { method: "DELETE", token: alice.token })).status).toBe(200);
        expect(existsSync(stored)).toBe(false); // deleted as far as the instance is concerned
      },
    });
    expect(readdirSync(t.dir).filter((name) => name.includes("backup"))).toEqual([]);
    expect(existsSync(stored)).toBe(false);

    const dataDir = join(root, "restored");
    await restoreBackup(backup, dataDir, QUIET);
    restored = await startTestApp({ WARREN_DATA_DIR: dataDir });
    const shown = await restored.request(`/api/v1/media/${media.id}`, { token: alice.token });
    expect(shown.status).toBe(200);
    const served = await restored.request(path);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(picture)).toBe(true);
  } finally {
    await restored?.close();
    await t.close();
  }
});
