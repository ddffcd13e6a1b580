// A real S3-API server (s3rver) on a loopback port with a fresh directory and one bucket, for the object
// storage tests; `env` holds the WARREN_S3_* variables that point Warren at it. s3rver serves objects to
// anonymous GETs at <endpoint>/<bucket>/<key>, which is then the public URL (as a public bucket's is).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

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
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket }] });
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
