// src/lib/ids.ts without an app: ids sort as time, and client-supplied ids and cursors are normalised.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ID_WIDTH, idAtTime, idThreadTagData, newId, normaliseId, publicId } from "../../src/lib/ids.ts";

describe("newId", () => {
  test("is fixed-width decimal, and string order is time order, within a millisecond too", () => {
    const ids = [newId(1_700_000_000_000), newId(1_700_000_000_000), newId(1_700_000_000_001), newId(1_800_000_000_000)];
    for (const id of ids) expect(id).toMatch(new RegExp(`^\\d{${ID_WIDTH}}$`));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  test("idAtTime is the smallest id of its millisecond: every id minted then sorts at or after it", () => {
    const ms = 1_900_000_000_000; // after every id minted above: newId never goes back in time
    expect(newId(ms) >= idAtTime(ms)).toBe(true);
    expect(idAtTime(ms + 1) > newId(ms)).toBe(true);
  });
});

describe("process tags", () => {
  /** An id minted at `ms` by a fresh process with WARREN_ID_TAG set to `tag` (or unset). */
  async function mintedBy(tag: string | undefined, ms: number): Promise<bigint> {
    const child = Bun.spawn([process.execPath, "-e", `import { newId } from "./src/lib/ids.ts"; console.log(newId(${ms}))`], {
      env: { ...process.env, WARREN_ID_TAG: tag },
      stdout: "pipe",
    });
    return BigInt((await new Response(child.stdout).text()).trim());
  }

  test("two processes with different tags mint different ids in the same millisecond; the tag is bits 11-15", async () => {
    const ms = 1_950_000_000_000;
    const [cli, lone, second] = await Promise.all([mintedBy(undefined, ms), mintedBy("1", ms), mintedBy("2", ms)]);
    expect(new Set([cli, lone, second]).size).toBe(3);
    expect([cli, lone, second].map((id) => Number((id >> 11n) & 31n))).toEqual([0, 1, 2]);
    expect([cli, lone, second].every((id) => id >> 16n === BigInt(ms))).toBe(true);
  });
});

describe("normaliseId", () => {
  test("left-pads what a client sends, as text or number, and strips leading zeros and spaces", () => {
    expect(normaliseId("123")).toBe("123".padStart(ID_WIDTH, "0"));
    expect(normaliseId(123)).toBe("123".padStart(ID_WIDTH, "0"));
    expect(normaliseId(" 000123 ")).toBe("123".padStart(ID_WIDTH, "0"));
    expect(normaliseId("0")).toBe("0".padStart(ID_WIDTH, "0"));
  });

  test("an id longer than ours is past every id (a max_id that pages from the top), not an error", () => {
    expect(normaliseId("1".repeat(25))).toBe("9".repeat(ID_WIDTH));
  });

  test("what is not an id is null", () => {
    for (const raw of ["", "abc", "12a", "-1", "1.5", "1".repeat(31), null, undefined, {}, ["1"]]) expect(normaliseId(raw)).toBeNull();
  });

  test("publicId is the stored id without its padding, and normalises back to it", () => {
    const id = newId();
    expect(publicId(id)).not.toMatch(/^0/);
    expect(normaliseId(publicId(id))).toBe(id);
  });
});

test("a job worker thread mints ids with the thread tag it was started with, the main thread with 0", async () => {
  const dir = mkdtempSync(join(tmpdir(), "warren-id-worker-"));
  const script = join(dir, "worker.ts");
  writeFileSync(script, `import { newId } from ${JSON.stringify(join(import.meta.dir, "../../src/lib/ids.ts"))};\npostMessage(newId());\n`);
  try {
    const tags = await Promise.all([3, 15].map((tag) => new Promise<number>((resolve) => {
      const worker = new Worker(script, { workerData: idThreadTagData(tag) } as Bun.WorkerOptions);
      worker.onmessage = (event) => {
        resolve(Number(BigInt(event.data as string) & 0xfn));
        worker.terminate();
      };
    })));
    expect(tags).toEqual([3, 15]);
    expect(Number(BigInt(newId()) & 0xfn)).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
