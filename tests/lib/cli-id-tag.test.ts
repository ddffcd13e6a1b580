// CLI commands run side by side each claim an id tag of their own (src/lib/cli-id-tag.ts): two commands that
// shared one could mint the same id in the same millisecond, and one record would overwrite the other.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimCliIdTag } from "../../src/lib/cli-id-tag.ts";
import { CLI_ID_TAGS } from "../../src/lib/ids.ts";

let dir: string;
const tagFile = (tag: number) => join(dir, "tmp", "id-tags", String(tag));

beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "warren-id-tags-"))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pid no live process has: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = Bun.spawn(["true"]);
  await child.exited;
  return child.pid;
}

test("each claim takes a tag no live claimer holds, and names its process", () => {
  const tags = [claimCliIdTag(dir), claimCliIdTag(dir), claimCliIdTag(dir)];
  expect(tags).toEqual([CLI_ID_TAGS.first, CLI_ID_TAGS.first + 1, CLI_ID_TAGS.first + 2]);
  for (const tag of tags) expect(readFileSync(tagFile(tag), "utf8").trim()).toBe(String(process.pid));
});

test("a tag left by a command that died is taken again only once no free tag is left", async () => {
  const dead = await deadPid();
  claimCliIdTag(dir);
  writeFileSync(tagFile(CLI_ID_TAGS.first + 1), `${dead}\n`);
  // Free tags first: the dead command's file stays.
  expect(claimCliIdTag(dir)).toBe(CLI_ID_TAGS.first + 2);
  for (let tag = CLI_ID_TAGS.first + 3; tag <= CLI_ID_TAGS.last; tag++) claimCliIdTag(dir);
  expect(claimCliIdTag(dir)).toBe(CLI_ID_TAGS.first + 1);
  expect(readFileSync(tagFile(CLI_ID_TAGS.first + 1), "utf8").trim()).toBe(String(process.pid));
  // Every tag held by a live process: 0, the tag of processes that claim none.
  expect(claimCliIdTag(dir)).toBe(0);
});

test("a command's claim is gone when it exits, and so are its folders", async () => {
  const script = `import { claimCliIdTag } from ${JSON.stringify(join(import.meta.dir, "../../src/lib/cli-id-tag.ts"))}; console.log(claimCliIdTag(${JSON.stringify(dir)}));`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" });
  const tag = Number((await new Response(child.stdout).text()).trim());
  await child.exited;
  expect(tag).toBe(CLI_ID_TAGS.first);
  expect(existsSync(tagFile(tag))).toBe(false);
  expect(existsSync(join(dir, "tmp"))).toBe(false);
});
