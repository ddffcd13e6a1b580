// A test peer that is not Fedify: Bun.serve and node:crypto only. It plays a Mastodon, GoToSocial or Misskey
// server on loopback: actors, keys, WebFinger and collections shaped as that server shapes them
// (flavours.ts), every request it receives verified by Mastodon's signature rules (signatures.ts) and every
// activity checked against what that server's parsers need (checks/). Each request is recorded with its
// verification and its problems. Like a real server it answers a Follow of an unlocked account with an
// Accept embedding the Follow, and keeps the follower until an Undo names that Follow by id.
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { activityId, actorDocument, actorShape, acceptsContentType, collection, featured, keyDocument, webfinger, type ActorShape, type Flavour } from "./flavours.ts";
import { signCavage, verifySignature, type SignOptions, type Verification } from "./signatures.ts";
import { userAgentProblems, type Activity, type CheckContext } from "./checks/common.ts";
import { mastodonProblems } from "./checks/mastodon.ts";
import { gotosocialProblems } from "./checks/gotosocial.ts";
import { misskeyProblems } from "./checks/misskey.ts";

const AP = "application/activity+json";
/** The context term of `alsoKnownAs` (Mastodon's own context has it; the others add it when they use it). */
const ALIAS_TERM = { alsoKnownAs: { "@id": "as:alsoKnownAs", "@type": "@id" } };
const CHECKS: Record<Flavour, (activity: Activity, context: CheckContext) => string[]> = {
  mastodon: mastodonProblems,
  gotosocial: gotosocialProblems,
  misskey: misskeyProblems,
};

export interface PeerActor extends ActorShape {
  username: string;
  privateKey: KeyObject;
  publicKeyPem: string;
  document: Record<string, unknown>;
  locked: boolean;
  /** Actor ids following this account, kept from Follows and Undo(Follow)s by Follow id. */
  followers: Map<string, string>;
}

export interface PeerRequest {
  method: string;
  path: string;
  /** Path and query, as signed. */
  target: string;
  headers: Headers;
  activity: Activity | null;
  verification: Verification;
  /** What the flavour's parsers and the User-Agent check found wrong (empty: understood). */
  problems: string[];
  status: number;
}

export interface PeerOptions {
  flavour?: Flavour;
  /** Secure mode (authorized fetch): GETs of actors and collections need a valid signature. */
  secure?: boolean;
  /** Whether RFC 9421 signatures are accepted (Mastodon 4.4+: yes; GoToSocial, Misskey: 401, so senders fall back). */
  rfc9421?: boolean;
}

export interface Peer {
  flavour: Flavour;
  domain: string;
  base: string;
  requests: PeerRequest[];
  actor(username: string, options?: { locked?: boolean; name?: string }): PeerActor;
  /** POSTs `activity` to `inbox`, signed as `actor` (Mastodon's way unless `sign` says otherwise). */
  send(actor: PeerActor, inbox: string, activity: Activity, sign?: Partial<SignOptions>): Promise<Response>;
  /** A GET of `url` signed as `actor` (or unsigned when null). */
  get(actor: PeerActor | null, url: string, sign?: Partial<SignOptions>): Promise<Response>;
  /** Delivered activities (POSTs answered 2xx), optionally of one type. */
  deliveries(type?: string): PeerRequest[];
  newActivityId(actor: PeerActor, kind: string): string;
  /** Lists `uris` as the actor's `alsoKnownAs` (what a move to it needs), with the context term Mastodon uses. */
  alias(actor: PeerActor, uris: string[]): void;
  /** Sends `Move` (actor and object: `actor`, target: `target`) to `inbox`, signed as `actor` by Mastodon's rules
   * (`sign` overrides them; `object` names another origin, for the abuse cases). */
  move(actor: PeerActor, target: string, inbox: string, options?: { object?: string; sign?: Partial<SignOptions> }): Promise<Response>;
  /** Serves `document` (a Note, say) at `path`, under the same signature rules as actors. */
  serve(path: string, document: Record<string, unknown>): void;
  /** Serves a file (an image, a video) at `path`, to anyone, as media servers do; after `delayMs` if given (a slow server). */
  serveFile(path: string, bytes: Uint8Array, contentType: string, delayMs?: number): void;
  stop(): void;
}

function newKeyPair(): { privateKey: KeyObject; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { privateKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

export function startPeer(options: PeerOptions = {}): Peer {
  const flavour = options.flavour ?? "mastodon";
  const rfc9421 = options.rfc9421 ?? flavour === "mastodon";
  const actors = new Map<string, PeerActor>();
  const requests: PeerRequest[] = [];
  const keys = new Map<string, { pem: string; owner: string }>();
  const served = new Map<string, Record<string, unknown>>();
  const files = new Map<string, { bytes: Uint8Array; contentType: string; delayMs: number }>();
  let instance: PeerActor;
  let moves = 0;

  async function fetchKey(keyId: string): Promise<{ pem: string; owner: string }> {
    const cached = keys.get(keyId);
    if (cached) return cached;
    const response = await peer.get(instance, keyId.split("#")[0]!);
    if (!response.ok) throw new Error(`GET ${keyId}: ${response.status}`);
    const document: any = await response.json();
    const key = [document.publicKey, document].flat().find((k: any) => k?.id === keyId && typeof k.publicKeyPem === "string");
    if (!key) throw new Error(`${keyId} is not in the document fetched`);
    const owner = key.owner ?? document.id;
    if (new URL(owner).origin !== new URL(keyId).origin) throw new Error(`${keyId} is owned by ${owner}, on another server`);
    const found = { pem: key.publicKeyPem, owner };
    keys.set(keyId, found);
    return found;
  }

  function record(request: Request, url: URL, verification: Verification, activity: Activity | null, status: number): PeerRequest {
    const context = { signer: verification.ok ? verification.owner : null, userAgent: request.headers.get("user-agent") };
    const problems = [...userAgentProblems(context.userAgent), ...(activity ? CHECKS[flavour](activity, context) : [])];
    if (!verification.ok && status !== 401) problems.push(`signature: ${verification.error}`);
    const entry = { method: request.method, path: url.pathname, target: url.pathname + url.search, headers: request.headers, activity, verification, problems, status };
    requests.push(entry);
    return entry;
  }

  function react(activity: Activity) {
    if (activity.type === "Follow") {
      const target = [...actors.values()].find((a) => a.id === activity.object);
      if (!target) return;
      target.followers.set(activity.id, activity.actor);
      if (!target.locked) void answerFollow(target, activity);
    }
    if (activity.type === "Undo" && activity.object?.type === "Follow") {
      for (const a of actors.values()) a.followers.delete(activity.object.id);
    }
  }

  async function answerFollow(target: PeerActor, follow: Activity) {
    const remote: any = await (await peer.get(instance, follow.actor)).json();
    const accept = { id: activityId(flavour, base, target.id, "accept"), type: "Accept", actor: target.id, object: { id: follow.id, type: "Follow", actor: follow.actor, object: target.id } };
    await peer.send(target, remote.inbox, accept);
  }

  async function inbox(request: Request, url: URL): Promise<Response> {
    const body = await request.text();
    const raw = { method: "POST", url, headers: request.headers, body };
    if (request.headers.get("signature-input") && !rfc9421) {
      record(request, url, { scheme: "rfc9421", keyId: null, owner: null, ok: false, covered: [], error: "RFC 9421 not accepted here" }, null, 401);
      return new Response(null, { status: 401 });
    }
    const verification = await verifySignature(raw, fetchKey);
    let activity: Activity | null = null;
    try {
      activity = JSON.parse(body);
    } catch {}
    const status = !verification.ok ? 401 : !acceptsContentType(flavour, request.headers.get("content-type")) ? 406 : activity ? 202 : 400;
    const entry = record(request, url, verification, activity, status);
    if (status === 406) entry.problems.push(`Content-Type ${request.headers.get("content-type")} refused`);
    if (status === 202) react(activity!);
    return new Response(null, { status });
  }

  function document(url: URL): unknown {
    if (served.has(url.pathname)) return served.get(url.pathname);
    for (const actor of actors.values()) {
      const path = new URL(actor.id).pathname;
      if (url.pathname === path) return actor.document;
      if (actor.keyPath === url.pathname) return keyDocument(actor, actor.publicKeyPem);
      const followers = [...actor.followers.values()];
      if (url.pathname === `${path}/followers`) return collection(flavour, `${actor.id}/followers`, followers, url.search !== "");
      if (url.pathname === `${path}/following`) return collection(flavour, `${actor.id}/following`, [], url.search !== "");
      if (url.pathname === `${path}/outbox`) return collection(flavour, `${actor.id}/outbox`, [], url.search !== "");
      if (url.pathname === `${path}/collections/featured`) return featured(`${actor.id}/collections/featured`);
    }
    return undefined;
  }

  async function serveGet(request: Request, url: URL): Promise<Response> {
    const file = files.get(url.pathname);
    if (file) {
      record(request, url, { scheme: "none", keyId: null, owner: null, ok: true, covered: [] }, null, 200);
      if (file.delayMs > 0) await Bun.sleep(file.delayMs); // a slow peer, as a test asks for it
      return new Response(file.bytes, { headers: { "content-type": file.contentType } });
    }
    if (url.pathname === "/.well-known/webfinger") {
      const [username, host] = (url.searchParams.get("resource") ?? "").replace(/^acct:/, "").split("@");
      const actor = actors.get(username!);
      // Recorded for its User-Agent; WebFinger is fetched unsigned, as Mastodon fetches it.
      const unsigned: Verification = { scheme: "none", keyId: null, owner: null, ok: false, covered: [] };
      const entry = record(request, url, unsigned, null, actor && host === domain ? 200 : 404);
      entry.problems = entry.problems.filter((p) => !p.startsWith("signature:"));
      if (!actor || host !== domain) return new Response(null, { status: 404 });
      return Response.json(webfinger(flavour, domain, username!, actor), { headers: { "content-type": "application/jrd+json" } });
    }
    const found = document(url);
    const isInstance = url.pathname === new URL(instance.id).pathname;
    const signed = request.headers.has("signature") || request.headers.has("signature-input");
    const verification: Verification = signed
      ? await verifySignature({ method: "GET", url, headers: request.headers, body: "" }, fetchKey)
      : { scheme: "none", keyId: null, owner: null, ok: false, covered: [], error: "Request not signed" };
    const refused = found === undefined ? 404 : options.secure && !isInstance && !verification.ok ? 401 : 200;
    const entry = record(request, url, verification, null, refused);
    // An unsigned GET is fine where the peer is not in secure mode; a signed one must verify.
    if (!signed && !options.secure) entry.problems = entry.problems.filter((p) => !p.startsWith("signature:"));
    if (refused !== 200) return new Response(null, { status: refused });
    return new Response(JSON.stringify(found), { headers: { "content-type": flavour === "mastodon" ? AP : `${AP}; charset=utf-8` } });
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      if (request.method === "POST") return inbox(request, url);
      return serveGet(request, url);
    },
  });
  const domain = `127.0.0.1:${server.port}`;
  const base = `http://${domain}`;

  const peer: Peer = {
    flavour,
    domain,
    base,
    requests,
    actor(username, actorOptions = {}) {
      const shape = actorShape(flavour, base, username);
      const { privateKey, publicKeyPem } = newKeyPair();
      const facts = { username, name: actorOptions.name ?? username, summary: `<p>${username} on a ${flavour} server</p>`, locked: actorOptions.locked ?? false, publicKeyPem, published: "2024-01-01T00:00:00Z" };
      const actor: PeerActor = { ...shape, username, privateKey, publicKeyPem, locked: facts.locked, followers: new Map(), document: actorDocument(flavour, shape, facts) };
      actors.set(username, actor);
      return actor;
    },
    async send(actor, inboxUrl, activity, sign = {}) {
      const body = JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", ...activity });
      const url = new URL(inboxUrl);
      const headers = signCavage("POST", url, { "content-type": AP, "user-agent": `${flavour}-test-peer (+${base}/)` }, body, { keyId: actor.keyId, privateKey: actor.privateKey, ...sign });
      return fetch(url, { method: "POST", headers, body });
    },
    async get(actor, href, sign = {}) {
      const url = new URL(href);
      const plain = { accept: AP, "user-agent": `${flavour}-test-peer (+${base}/)` };
      const headers = actor ? signCavage("GET", url, plain, null, { keyId: actor.keyId, privateKey: actor.privateKey, ...sign }) : plain;
      return fetch(url, { headers });
    },
    deliveries(type) {
      return requests.filter((r) => r.method === "POST" && r.status === 202 && (!type || r.activity?.type === type));
    },
    newActivityId(actor, kind) {
      return activityId(flavour, base, actor.id, kind);
    },
    alias(actor, uris) {
      const context = [actor.document["@context"]].flat().filter((entry) => entry !== ALIAS_TERM);
      actor.document = { ...actor.document, "@context": [...context, ALIAS_TERM], alsoKnownAs: uris };
    },
    move(actor, target, inboxUrl, moveOptions = {}) {
      // Mastodon's MoveSerializer: `<actor>#moves/<migration id>`; the others mint ids of their own.
      const id = flavour === "mastodon" ? `${actor.id}#moves/${++moves}` : activityId(flavour, base, actor.id, "move");
      const activity = { id, type: "Move", actor: actor.id, object: moveOptions.object ?? actor.id, target };
      return peer.send(actor, inboxUrl, activity, moveOptions.sign);
    },
    serve(path, document) {
      served.set(path, document);
    },
    serveFile(path, bytes, contentType, delayMs = 0) {
      files.set(path, { bytes, contentType, delayMs });
    },
    stop() {
      server.stop(true);
    },
  };
  // Mastodon's instance actor signs its key fetches; here an Application under the same shapes.
  instance = peer.actor(flavour === "mastodon" ? "mastodon.internal" : "instance.actor");
  instance.document = { ...instance.document, type: "Application" };
  return peer;
}
