import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import { getSetting, putSetting } from "../../src/store/settings.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-store-"));
const store = openStore(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a write that throws leaves nothing behind", async () => {
  await expect(
    store.write(() => {
      putSetting(store, "registrations", "open");
      throw new Error("validation failed half-way");
    }),
  ).rejects.toThrow("validation failed half-way");
  expect(getSetting(store, "registrations")).toBeUndefined();
});

test("a write that completes is visible and returns its value", async () => {
  const result = await store.write(() => {
    putSetting(store, "registrations", "closed");
    return getSetting(store, "registrations");
  });
  expect(result).toBe("closed");
  expect(getSetting(store, "registrations")).toBe("closed");
});
