// Schema 7 (docs/disk.md): an actor's key pair is stored as DER (two to a 4 KiB page instead of an overflow
// page each). Pairs stored as PEM are packed by migration 7 and sign as before; a PEM that DER would not give
// back byte for byte is kept as it is.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestApp } from "../helpers/app.ts";
import { newUser } from "../http/statuses-helpers.ts";
import { openStore } from "../../src/store/db.ts";
import { schemaVersion } from "../../src/store/migrations.ts";
import { getAccountKeys } from "../../src/store/account-keys-packing.ts";

const dir = mkdtempSync(join(tmpdir(), "warren-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("key pairs stored as PEM are packed as DER by migration 7, and the actor shows the same key", async () => {
  const t = await startTestApp({ WARREN_DATA_DIR: dir });
  const alice = await newUser(t, "keys");
  const bob = await newUser(t, "keys");
  const aliceId = alice.id.padStart(18, "0");
  const bobId = bob.id.padStart(18, "0");
  const actorKey = async () => ((await (await t.request(`/users/${alice.username}`, { headers: { accept: "application/activity+json" } })).json()) as any).publicKey.publicKeyPem;
  const served = await actorKey();
  // Written packed.
  expect(t.deps.store.db.accountKeys.get(aliceId).publicKeyDer).toBeInstanceOf(Uint8Array);
  const alicePem = getAccountKeys(t.deps.store, aliceId)!;
  const bobPem = getAccountKeys(t.deps.store, bobId)!;
  expect(alicePem.privateKeyPem).toStartWith("-----BEGIN PRIVATE KEY-----\n");
  await t.deps.jobs.stop();
  await t.deps.store.close();

  // The schema-6 form: PEM text, bob's with CRLF line ends (as another tool might have written it).
  const old = openStore(dir, { migrate: false });
  const bobCrlf = { ...bobPem, privateKeyPem: bobPem.privateKeyPem!.replaceAll("\n", "\r\n") };
  await old.write(() => {
    old.db.accountKeys.put(aliceId, alicePem);
    old.db.accountKeys.put(bobId, bobCrlf);
    old.db.meta.put("schema_version", 6);
  });
  await old.close();

  const store = openStore(dir);
  try {
    expect(schemaVersion(store)).toBeGreaterThanOrEqual(7);
    expect(store.db.accountKeys.get(aliceId).publicKeyPem).toBeUndefined();
    expect(getAccountKeys(store, aliceId)).toEqual(alicePem);
    expect(store.db.accountKeys.get(bobId)).toEqual(bobCrlf);
  } finally {
    await store.close();
  }
  const again = await startTestApp({ WARREN_DATA_DIR: dir });
  try {
    const res = await again.request(`/users/${alice.username}`, { headers: { accept: "application/activity+json" } });
    expect(((await res.json()) as any).publicKey.publicKeyPem).toBe(served);
  } finally {
    await again.deps.jobs.stop();
    await again.deps.store.close();
  }
}, 60_000);
