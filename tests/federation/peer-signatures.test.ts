// The test peer's verifier (tests/peer/signatures.ts, Mastodon's rules on node:crypto) holds: a request it
// signed itself verifies, and each way Mastodon refuses one is refused here too, so a peer test that sees
// "verified" has seen a signature Mastodon would take.
import { expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { signCavage, verifySignature, type RawRequest } from "../peer/signatures.ts";

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const keyId = "https://peer.example/users/bob#main-key";
const fetchKey = async () => ({ pem: publicKey.export({ type: "spki", format: "pem" }).toString(), owner: "https://peer.example/users/bob" });
const url = new URL("https://warren.example/users/alice/inbox");
const body = JSON.stringify({ type: "Follow" });

function post(headers: Record<string, string>, sentBody = body): RawRequest {
  return { method: "POST", url, headers: new Headers(headers), body: sentBody };
}

test("a POST signed as Mastodon signs verifies; a changed body, date or target does not", async () => {
  const headers = signCavage("POST", url, { "content-type": "application/activity+json" }, body, { keyId, privateKey });
  expect(await verifySignature(post(headers), fetchKey)).toMatchObject({ scheme: "draft-cavage", ok: true, targetWithQuery: true });
  expect((await verifySignature(post(headers, body + " "), fetchKey)).error).toMatch(/^Invalid Digest value/);
  const old = { ...headers, date: new Date(Date.now() - 2 * 3600_000).toUTCString() };
  expect((await verifySignature(post(old), fetchKey)).error).toBe("Signed request date outside acceptable time window");
  const moved: RawRequest = { ...post(headers), url: new URL("https://warren.example/inbox") };
  expect((await verifySignature(moved, fetchKey)).error).toBe("Verification failed");
});

test("Mastodon's strength rules: digest for POSTs, host for GETs, and a supported algorithm", async () => {
  const signed = signCavage("POST", url, {}, body, { keyId, privateKey });
  const withoutDigest = { ...signed, signature: signed.signature!.replace(" digest", "") };
  expect((await verifySignature(post(withoutDigest), fetchKey)).error).toBe("Mastodon requires the Digest header to be signed when doing a POST request");
  const getUrl = new URL("https://warren.example/users/alice/followers?page=1");
  const get = signCavage("GET", getUrl, {}, null, { keyId, privateKey });
  const noHost = { ...get, signature: get.signature!.replace(" host", "") };
  expect((await verifySignature({ method: "GET", url: getUrl, headers: new Headers(noHost), body: "" }, fetchKey)).error).toBe("Mastodon requires the Host header to be signed when doing a GET request");
  const ed = { ...signed, signature: signed.signature!.replace("rsa-sha256", "ed25519") };
  expect((await verifySignature(post(ed), fetchKey)).error).toMatch(/^Unsupported signature algorithm/);
  const hs2019 = signCavage("GET", getUrl, {}, null, { keyId, privateKey, style: "hs2019-created" });
  expect(await verifySignature({ method: "GET", url: getUrl, headers: new Headers(hs2019), body: "" }, fetchKey)).toMatchObject({ ok: true, algorithm: "hs2019" });
  expect((await verifySignature({ method: "GET", url: getUrl, headers: new Headers(), body: "" }, fetchKey)).error).toBe("Request not signed");
});
