// Federation's own stored values (actor keys).
// The shapes every layer shares (src/model/, docs/architecture.md); src/store keeps them in LMDB.
// Times are unix milliseconds; `v` is a record's schema version.

/** A JSON Web Key, as exported. */
export type Jwk = Record<string, unknown>;

export interface ActorKeyRecord {
  v: 1;
  publicKeyJwk: Jwk;
  privateKeyJwk: Jwk;
  createdAt: number;
}

export type ActorKeyOwner = string | "instance";
