// The contract Warren needs from an S3-compatible service, checked through the S3 MediaStore itself: write
// with a content type, stat, read, list by prefix (across pages), delete (also of a missing key), public
// reads at WARREN_S3_PUBLIC_URL, and the storage helpers (saveMediaFile, mediaUrl, deleteMediaFile) on top.
// It always runs against s3rver on loopback; with WARREN_S3_ENDPOINT (and the other WARREN_S3_* variables)
// set, it runs against that service too, under a fresh prefix it removes afterwards, e.g.
//   WARREN_S3_ENDPOINT=https://s3.eu-central-1.amazonaws.com WARREN_S3_BUCKET=… WARREN_S3_REGION=eu-central-1 \
//   WARREN_S3_ACCESS_KEY_ID=… WARREN_S3_SECRET_ACCESS_KEY=… WARREN_S3_PUBLIC_URL=https://….s3.amazonaws.com \
//   node_modules/.bin/bun test tests/media/s3-contract.test.ts
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { loadConfig, type Config, type S3Config } from "../../src/config.ts";
import { deleteMediaFile, mediaFileSize, mediaUrl, saveMediaFile } from "../../src/media/storage.ts";
import { S3MediaStore } from "../../src/media/s3-store.ts";
import { startTestBucket, type TestBucket } from "../helpers/s3.ts";

function contract(name: string, settings: () => S3Config) {
  describe(`S3 contract: ${name}`, () => {
    // Everything this run writes is under its own prefix, removed at the end (a real bucket may hold other things).
    const prefix = `warren-contract-${randomBytes(6).toString("hex")}`;
    let store: S3MediaStore;
    let config: Config;
    beforeAll(() => {
      const s3 = settings();
      store = new S3MediaStore(s3);
      config = { ...loadConfig({ WARREN_URL: "https://warren.example" }), s3 };
    });
    afterAll(async () => {
      for await (const { key } of store.list(`${prefix}/`)) await store.delete(key);
    });

    test("write, stat, read and a public GET give back the bytes and the content type", async () => {
      const key = `${prefix}/a/one.png`;
      const bytes = new Uint8Array(randomBytes(3000));
      await store.write(key, bytes, "image/png");
      const stats = await store.stat(key);
      expect(stats?.size).toBe(3000);
      expect(stats?.modified).toBeInstanceOf(Date);
      expect(await store.read(key)).toEqual(bytes);
      const served = await fetch(store.publicUrl(key));
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/png");
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);
    });

    test("a missing key: stat and read answer null, delete is no error", async () => {
      const key = `${prefix}/missing/none.png`;
      expect(await store.stat(key)).toBeNull();
      expect(await store.read(key)).toBeNull();
      await store.delete(key);
    });

    test("list finds every key under a prefix, over more than one page, and none beside it", async () => {
      const keys = Array.from({ length: 1005 }, (_, i) => `${prefix}/many/${String(i).padStart(4, "0")}.gif`);
      for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((key) => store.write(key, new Uint8Array([i & 255]), "image/gif")));
      await store.write(`${prefix}/manyother.gif`, new Uint8Array([1]), "image/gif");
      const listed: string[] = [];
      for await (const { key, size } of store.list(`${prefix}/many/`)) {
        listed.push(key);
        expect(size).toBe(1);
      }
      expect(listed.sort()).toEqual(keys);
    }, 120_000);

    test("delete removes the object", async () => {
      const key = `${prefix}/gone/x.webp`;
      await store.write(key, new Uint8Array([1, 2]), "image/webp");
      await store.delete(key);
      expect(await store.stat(key)).toBeNull();
    });

    test("the storage helpers: saveMediaFile stores in the bucket, mediaUrl points at the public URL, deleteMediaFile removes", async () => {
      const path = await saveMediaFile(config, [prefix, "helpers"], "mp4", new Uint8Array(4321));
      expect(path).toMatch(new RegExp(`^/system/${prefix}/helpers/[0-9a-f]{32}\\.mp4$`));
      expect(await mediaFileSize(config, path)).toBe(4321);
      const url = mediaUrl(config, path)!;
      expect(url).toBe(`${config.s3!.publicUrl}${path.slice("/system".length)}`);
      const served = await fetch(url);
      expect([served.status, served.headers.get("content-type")]).toEqual([200, "video/mp4"]);
      await deleteMediaFile(config, path);
      expect(await mediaFileSize(config, path)).toBeNull();
    });
  });
}

let bucket: TestBucket;
beforeAll(async () => {
  bucket = await startTestBucket("contract");
});
afterAll(() => bucket.close());
contract("s3rver on loopback", () => loadConfig(bucket.env).s3!);

const external = process.env.WARREN_S3_ENDPOINT ? loadConfig(process.env).s3 : null;
if (!external) {
  console.log("tests/media/s3-contract.test.ts: WARREN_S3_ENDPOINT is not set, so only s3rver is checked; set the WARREN_S3_* variables to check a real S3 service");
}
describe.skipIf(!external)("against WARREN_S3_ENDPOINT", () => {
  contract(external?.endpoint ?? "(not set)", () => external!);
});
