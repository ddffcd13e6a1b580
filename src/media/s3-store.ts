// Media in an S3-compatible bucket through Bun's built-in client (Bun.S3Client, AWS Signature V4). Objects are
// written under their key with their content type; clients fetch them from `publicUrl` (the bucket's public
// address or a CDN in front of it, Mastodon's S3_ALIAS_HOST), never through this server. The bucket (or the
// CDN) must allow anonymous reads of its objects: Warren sets no ACL, since buckets with object ownership
// enforced (the AWS default) refuse ACLs; see docs/media.md.
import { unlink } from "node:fs/promises";
import type { S3Config } from "../config.ts";
import type { MediaStore, StoredObject } from "./media-store.ts";

/** The client's answer for a key that holds nothing. */
const missing = (error: unknown) => ["NoSuchKey", "NotFound"].includes((error as { code?: string })?.code ?? "");

/** Answers S3 says to retry (its 500 and 503s); AWS's own SDKs retry them as well. */
const TRANSIENT = new Set(["InternalError", "ServiceUnavailable", "SlowDown", "RequestTimeout"]);
const RETRY_DELAYS_MS = [50, 250, 1000];

/** Runs one request, again after a short pause when S3 answers with a transient error (up to three times more). */
async function retried<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const code = (error as { code?: string })?.code ?? "";
      if (!TRANSIENT.has(code) || attempt >= RETRY_DELAYS_MS.length) throw error;
      await Bun.sleep(RETRY_DELAYS_MS[attempt]!);
    }
  }
}

export class S3MediaStore implements MediaStore {
  readonly kind = "s3";
  private readonly client: Bun.S3Client;

  constructor(private readonly s3: S3Config) {
    this.client = new Bun.S3Client({
      endpoint: s3.endpoint,
      bucket: s3.bucket,
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    });
  }

  async write(key: string, data: Uint8Array, contentType: string): Promise<void> {
    await retried(() => this.client.write(key, data, { type: contentType }));
  }

  async adopt(key: string, file: string, contentType: string): Promise<void> {
    await retried(() => this.client.write(key, Bun.file(file), { type: contentType }));
    await unlink(file);
  }

  async read(key: string): Promise<Uint8Array | null> {
    try {
      return await retried(() => this.client.file(key).bytes());
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number; modified: Date } | null> {
    try {
      const stats = await retried(() => this.client.stat(key));
      return { size: stats.size, modified: stats.lastModified };
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await retried(() => this.client.delete(key)); // S3 answers 204 for a key that holds nothing, too
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    let continuationToken: string | undefined;
    for (;;) {
      const page = await retried(() => this.client.list({ prefix, maxKeys: 1000, ...(continuationToken ? { continuationToken } : {}) }));
      for (const object of page.contents ?? []) yield { key: object.key, size: object.size ?? 0 };
      continuationToken = page.nextContinuationToken;
      if (!page.isTruncated || !continuationToken) return;
    }
  }

  publicUrl(key: string): string {
    return `${this.s3.publicUrl}/${key}`;
  }
}
