// A Web Push device and push service for tests: a P-256 key pair and auth secret as a browser makes them,
// a receiver on loopback (Bun.serve, port 0) that records what is posted and answers what the test says, and
// decryption of both content codings written here from the specifications with node:crypto (not with the
// library Warren encrypts with): RFC 8291/8188 `aes128gcm` and the legacy `aesgcm` draft
// (draft-ietf-webpush-encryption-04 over draft-ietf-httpbis-encryption-encoding-03).
import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from "node:crypto";
import { eventually } from "./eventually.ts";

export interface Device {
  ecdh: ECDH;
  /** uncompressed public key, base64url */
  p256dh: string;
  /** 16-byte auth secret, base64url */
  auth: string;
}

export function newDevice(): Device {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync("sha256", ikm, salt, info, length));

function aesGcmOpen(key: Buffer, nonce: Buffer, record: Buffer): Buffer {
  const decipher = createDecipheriv("aes-128-gcm", key, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  return Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
}

/** RFC 8291 §3.4 and RFC 8188 §2: one record (push messages are small), keyid = the sender's public key. */
function decryptAes128gcm(device: Device, body: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65 || record.length > recordSize) throw new Error(`unexpected aes128gcm header (keyid ${idLength}, rs ${recordSize})`);
  const secret = device.ecdh.computeSecret(senderKey);
  const authSecret = Buffer.from(device.auth, "base64url");
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), device.ecdh.getPublicKey(), senderKey]);
  const ikm = hkdf(secret, authSecret, keyInfo, 32);
  const key = hkdf(ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12);
  const plain = aesGcmOpen(key, nonce, record);
  // data, then the delimiter (2: last record), then zero padding
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error("missing last-record delimiter");
  return plain.subarray(0, end);
}

function headerParam(header: string | null, name: string): Buffer {
  const match = new RegExp(`(?:^|[;,\\s])${name}=([A-Za-z0-9_-]+)`).exec(header ?? "");
  if (!match) throw new Error(`no ${name}= in ${header}`);
  return Buffer.from(match[1]!, "base64url");
}

/** The aesgcm draft: salt in `Encryption`, the sender's key as `dh` in `Crypto-Key`, 2-byte padding length first. */
function decryptAesgcm(device: Device, headers: Headers, body: Buffer): Buffer {
  const salt = headerParam(headers.get("encryption"), "salt");
  const senderKey = headerParam(headers.get("crypto-key"), "dh");
  const secret = device.ecdh.computeSecret(senderKey);
  const authSecret = Buffer.from(device.auth, "base64url");
  const ikm = hkdf(secret, authSecret, Buffer.from("Content-Encoding: auth\0"), 32);
  const length = (key: Buffer) => Buffer.from([0, key.length]);
  const receiverKey = device.ecdh.getPublicKey();
  const context = Buffer.concat([Buffer.from("P-256\0"), length(receiverKey), receiverKey, length(senderKey), senderKey]);
  const key = hkdf(ikm, salt, Buffer.concat([Buffer.from("Content-Encoding: aesgcm\0"), context]), 16);
  const nonce = hkdf(ikm, salt, Buffer.concat([Buffer.from("Content-Encoding: nonce\0"), context]), 12);
  const plain = aesGcmOpen(key, nonce, body);
  return plain.subarray(2 + plain.readUInt16BE(0));
}

export function decryptPush(device: Device, headers: Headers, body: Buffer): string {
  const coding = headers.get("content-encoding");
  if (coding === "aes128gcm") return decryptAes128gcm(device, body).toString("utf8");
  if (coding === "aesgcm") return decryptAesgcm(device, headers, body).toString("utf8");
  throw new Error(`unexpected Content-Encoding ${coding}`);
}

export interface Received {
  path: string;
  headers: Headers;
  body: Buffer;
  at: number;
}

export interface Receiver {
  /** base URL, http://127.0.0.1:<port> */
  base: string;
  received: Received[];
  /** What a path answers, in turn (the last one from then on); 201 when not set. */
  answer: Map<string, number[]>;
  /** The requests posted to `path` so far. */
  to(path: string): Received[];
  /** Resolves once `path` has had `count` requests (rejects after `timeoutMs`). */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<Received[]>;
  stop(): void;
}

export function startReceiver(): Receiver {
  const received: Received[] = [];
  const answer = new Map<string, number[]>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      received.push({ path, headers: request.headers, body: Buffer.from(await request.arrayBuffer()), at: Date.now() });
      const statuses = answer.get(path);
      const status = (statuses && statuses.length > 1 ? statuses.shift() : statuses?.[0]) ?? 201;
      return new Response(null, { status });
    },
  });
  const to = (path: string) => received.filter((r) => r.path === path);
  return {
    base: `http://127.0.0.1:${server.port}`,
    received,
    answer,
    to,
    waitFor: (path, count = 1, timeoutMs = 20_000) =>
      eventually(() => to(path).length >= count && to(path), { what: `${count} pushes to ${path}`, timeoutMs }),

    stop: () => server.stop(true),
  };
}
