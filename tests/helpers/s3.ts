// A real S3-API server (s3rver) on a loopback port with a fresh directory and one bucket, for the object
// storage tests; `env` holds the WARREN_S3_* variables that point Warren at it. s3rver serves objects to
// anonymous GETs at <endpoint>/<bucket>/<key>, which is then the public URL (as a public bucket's is).
import crypto from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";

// s3rver makes the continuation token of a listing longer than a page with DES, which Bun's crypto does not
// have: without this, any listing of more than 1,000 keys is a 500. The token is opaque to clients, so DES is
// stood in for by AES-128-CBC with the key and IV doubled, here in the test process only.
const cryptoModule = crypto as unknown as Record<"createCipheriv" | "createDecipheriv", (algorithm: string, key: Buffer, iv: Buffer, ...rest: unknown[]) => unknown>;
for (const name of ["createCipheriv", "createDecipheriv"] as const) {
  const original = cryptoModule[name];
  cryptoModule[name] = (algorithm, key, iv, ...rest) =>
    algorithm === "des" ? original("aes-128-cbc", Buffer.concat([key, key]), Buffer.concat([iv, iv]), ...rest) : original(algorithm, key, iv, ...rest);
}

// s3rver pages a listing by "keys after the last one sent", walking its folders in readdir order, which Node
// sorts and Bun does not: under Bun a listing of more than one page repeats and skips keys. Its walk is
// replaced (before s3rver loads it) by the same walk in sorted order, as under Node.
const require = createRequire(import.meta.url);
const utils = require("s3rver/lib/utils.js") as { walk: (dir: string, filter?: (dir: string) => boolean) => Generator<string> };
utils.walk = function* walk(dir: string, filter?: (dir: string) => boolean): Generator<string> {
  for (const name of readdirSync(dir).sort()) {
    const path = posix.join(dir, name);
    if (!statSync(path).isDirectory()) yield path;
    else if (!filter || filter(path)) yield* walk(path, filter);
  }
};
const S3rver = require("s3rver");

export interface TestBucket {
  endpoint: string;
  bucket: string;
  publicUrl: string;
  env: Record<string, string>;
  /** A client of the bucket, to look at what Warren stored. */
  client: Bun.S3Client;
  /** Every key in the bucket. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startTestBucket(bucket = "warren-media"): Promise<TestBucket> {
  const directory = mkdtempSync(join(tmpdir(), "warren-s3rver-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: !process.env.S3RVER_LOG, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any signature made with its fixed key pair.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const client = new Bun.S3Client({ endpoint, bucket, region: "us-east-1", ...credentials });
  return {
    endpoint,
    bucket,
    publicUrl: `${endpoint}/${bucket}`,
    env: {
      WARREN_S3_ENDPOINT: endpoint,
      WARREN_S3_BUCKET: bucket,
      WARREN_S3_REGION: "us-east-1",
      WARREN_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      WARREN_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      WARREN_S3_PUBLIC_URL: `${endpoint}/${bucket}`,
    },
    client,
    async keys() {
      return ((await client.list({ maxKeys: 1000 })).contents ?? []).map((object) => object.key).sort();
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
