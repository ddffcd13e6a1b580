// A minimal ActivityPub peer on loopback written by hand (raw JSON, no Fedify server), to drive a Warren
// instance's inbox the way another implementation would: its actors are served as JSON-LD with an RSA key,
// it answers WebFinger, records every request its inboxes get, and sends activities signed with
// draft-cavage HTTP signatures (Fedify's signRequest, the signature Mastodon sends). Tests can also send
// unsigned, forged, replayed or oversized requests through `post`. With `requireSignedGets` it plays a server
// in secure mode (authorized fetch): GETs of its documents need a valid HTTP signature (401 otherwise), and
// `fetched` records who signed each.
import { generateCryptoKeyPair, signRequest, verifyRequest } from "@fedify/fedify/sig";
import { getDocumentLoader } from "@fedify/vocab-runtime";

async function publicKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await crypto.subtle.exportKey("spki", key)).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${der.match(/.{1,64}/g)!.join("\n")}\n-----END PUBLIC KEY-----\n`;
}

export interface FakeActor {
  username: string;
  id: string;
  inbox: string;
  keyId: string;
  privateKey: CryptoKey;
  /** The actor document served at `id` (tests may change it before it is fetched again). */
  document: Record<string, unknown>;
}

export interface Received {
  path: string;
  headers: Headers;
  body: any;
}

/** A GET of one of the peer's documents (actors, served paths). */
export interface Fetched {
  path: string;
  headers: Headers;
  /** The key whose valid signature the GET carried (checked only with `requireSignedGets`), or null. */
  signedBy: string | null;
}

export interface FakePeerOptions {
  /** Answer GETs of documents only when validly signed (401 otherwise), as Mastodon's secure mode. */
  requireSignedGets?: boolean;
}

export interface FakePeer {
  domain: string;
  base: string;
  /** Every POST its inboxes got, oldest first. */
  received: Received[];
  /** Every GET of its documents, oldest first (WebFinger is not recorded). */
  fetched: Fetched[];
  actor(username: string, extra?: Record<string, unknown>): Promise<FakeActor>;
  /** Extra documents served as JSON-LD at a path (notes, collections). */
  serve(path: string, document: unknown): void;
  /** Signs `activity` as `actor` and POSTs it to `inbox`; the response. */
  send(actor: FakeActor, inbox: string, activity: Record<string, unknown>, options?: { date?: Date }): Promise<Response>;
  /** The signed request `send` would make, for replaying or tampering. */
  signed(actor: FakeActor, inbox: string, activity: Record<string, unknown>, options?: { date?: Date }): Promise<Request>;
  stop(): void;
}

const CONTEXT = ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"];
const AP = "application/activity+json";

// Keys of the signers of GETs are fetched from loopback (the Warren instance under test).
const keyLoader = getDocumentLoader({ allowPrivateAddress: true });

export async function startFakePeer(options: FakePeerOptions = {}): Promise<FakePeer> {
  const documents = new Map<string, unknown>();
  const actors = new Map<string, FakeActor>();
  const received: Received[] = [];
  const fetched: Fetched[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request): Promise<Response> {
      const url = new URL(request.url);
      if (request.method === "POST") {
        const text = await request.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        received.push({ path: url.pathname, headers: request.headers, body });
        return new Response(null, { status: 202 });
      }
      if (url.pathname === "/.well-known/webfinger") {
        const resource = url.searchParams.get("resource") ?? "";
        const username = resource.replace(/^acct:/, "").split("@")[0]!;
        const actor = actors.get(username);
        if (!actor) return new Response(null, { status: 404 });
        return Response.json(
          { subject: `acct:${username}@${domain}`, links: [{ rel: "self", type: AP, href: actor.id }] },
          { headers: { "content-type": "application/jrd+json" } },
        );
      }
      const actor = [...actors.values()].find((a) => new URL(a.id).pathname === url.pathname);
      const document = actor?.document ?? documents.get(url.pathname);
      if (document === undefined) return new Response(null, { status: 404 });
      let signedBy: string | null = null;
      if (options.requireSignedGets) {
        const key = await verifyRequest(request, { documentLoader: keyLoader, contextLoader: keyLoader }).catch(() => null);
        signedBy = key?.id?.href ?? null;
      }
      fetched.push({ path: url.pathname, headers: request.headers, signedBy });
      if (options.requireSignedGets && !signedBy) return new Response(null, { status: 401 });
      return new Response(JSON.stringify(document), { headers: { "content-type": AP } });
    },
  });
  const domain: string = `127.0.0.1:${server.port}`;
  const base = `http://${domain}`;

  async function signed(actor: FakeActor, inbox: string, activity: Record<string, unknown>, options: { date?: Date } = {}) {
    const body = JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", ...activity });
    const request = new Request(inbox, { method: "POST", headers: { "content-type": AP, accept: AP }, body });
    return signRequest(request, actor.privateKey, new URL(actor.keyId), {
      currentTime: options.date ? Temporal.Instant.fromEpochMilliseconds(options.date.getTime()) : undefined,
    });
  }

  return {
    domain,
    base,
    received,
    fetched,
    async actor(username, extra = {}) {
      const { privateKey, publicKey } = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
      const id = `${base}/users/${username}`;
      const actor: FakeActor = {
        username,
        id,
        inbox: `${id}/inbox`,
        keyId: `${id}#main-key`,
        privateKey,
        document: {
          "@context": CONTEXT,
          id,
          type: "Person",
          preferredUsername: username,
          name: username,
          summary: "",
          url: `${base}/@${username}`,
          inbox: `${id}/inbox`,
          outbox: `${id}/outbox`,
          followers: `${id}/followers`,
          following: `${id}/following`,
          endpoints: { sharedInbox: `${base}/inbox` },
          publicKey: { id: `${id}#main-key`, owner: id, publicKeyPem: await publicKeyPem(publicKey) },
          ...extra,
        },
      };
      actors.set(username, actor);
      return actor;
    },
    serve(path, document) {
      documents.set(path, document);
    },
    signed,
    async send(actor, inbox, activity, options) {
      return fetch(await signed(actor, inbox, activity, options));
    },
    stop() {
      server.stop(true);
    },
  };
}
