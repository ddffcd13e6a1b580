// The instance's VAPID key pair (RFC 8292): made on first start, stored in LMDB, and the same everywhere it is
// reported (apps' `vapid_key`, the v2 instance's `configuration.vapid.public_key`, `server_key` of every
// subscription) and used (the signature of every push). A client subscribes with this public key as its
// `applicationServerKey`, so changing it would silently break every subscription: it is never rotated.
import { createECDH } from "node:crypto";
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getVapidKeys, putVapidKeysOnce } from "../../store/push.ts";
import type { VapidKeys } from "../../model/notifications.ts";

/** The stored key pair, made and stored now when there is none yet (first start; any process may win). */
export function ensureVapidKeys(store: Store): VapidKeys {
  return getVapidKeys(store) ?? putVapidKeysOnce(store, newVapidKeys());
}

/**
 * A P-256 key pair as web-push's generateVAPIDKeys makes it (base64url; the private key 32 bytes, the public
 * key the 65-byte uncompressed point), made here so that starting never loads web-push (~20 ms).
 */
function newVapidKeys(): VapidKeys {
  const curve = createECDH("prime256v1");
  curve.generateKeys();
  const padded = (key: Buffer, length: number) => (key.length < length ? Buffer.concat([Buffer.alloc(length - key.length), key]) : key);
  return { publicKey: padded(curve.getPublicKey(), 65).toString("base64url"), privateKey: padded(curve.getPrivateKey(), 32).toString("base64url") };
}

/**
 * Who push services may contact about our pushes (the JWT's `sub`): the contact e-mail when configured,
 * else the instance URL when it is https, else a mailto: address on the instance's host (web-push accepts
 * only mailto: and https: subjects).
 */
export function vapidSubject(config: Config): string {
  if (config.contactEmail) return `mailto:${config.contactEmail}`;
  const url = new URL(config.url);
  if (url.protocol === "https:") return config.url;
  return `mailto:admin@${url.hostname}`;
}
