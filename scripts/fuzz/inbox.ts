// The ActivityPub inboxes (`POST /inbox`, `POST /users/{username}/inbox`), which /openapi/json does not list
// (Fedify answers them): activities nested deep, huge, malformed, or valid-looking but unsigned or badly
// signed. Any of them must be refused with a 4xx (or accepted), never a 5xx or a hang.
import { wtf8 } from "./encode.ts";
import type { FuzzRequest } from "./generate.ts";
import type { Random } from "./random.ts";
import type { Operation } from "./spec.ts";
import { longText, type Pools } from "./values.ts";

export const INBOX_OPERATIONS: Operation[] = ["/inbox", "/users/{username}/inbox"].map((path) => ({
  key: `POST ${path}`,
  method: "POST",
  path,
  parameters: [],
  scopes: [],
  kind: "inbox",
}));

const nested = (open: string, close: string, depth: number, inner = "") => open.repeat(depth) + inner + close.repeat(depth);

const MALLORY = "https://remote.example/users/mallory";

function activity(rng: Random, pools: Pools, fields: Record<string, unknown>, actor = rng.pick([MALLORY, `http://${pools.domain}/users/${rng.pick(pools.usernames)}`, longText(rng)])): Record<string, unknown> {
  return {
    "@context": rng.pick<unknown>(["https://www.w3.org/ns/activitystreams", ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"], { "@vocab": longText(rng) }]),
    id: `https://remote.example/activities/${rng.int(0, 1e9)}`,
    actor,
    ...fields,
  };
}

/** Activities a server could send, unsigned or with a signature that cannot verify; some fields long. */
function plausible(rng: Random, pools: Pools): string {
  const local = `http://${pools.domain}/users/${rng.pick(pools.usernames)}`;
  const note = () => ({
    id: `https://remote.example/notes/${rng.int(0, 1e9)}`,
    type: "Note",
    attributedTo: "https://remote.example/users/mallory",
    content: rng.chance(0.5) ? "hi" : longText(rng),
    to: ["https://www.w3.org/ns/activitystreams#Public"],
    tag: [{ type: "Hashtag", name: `#${longText(rng)}` }, { type: "Mention", href: local }],
    inReplyTo: rng.chance(0.5) ? `https://remote.example/${longText(rng)}` : null,
  });
  const shapes = [
    () => activity(rng, pools, { type: "Create", object: note() }),
    () => activity(rng, pools, { type: "Follow", object: local }),
    () => activity(rng, pools, { type: "Like", object: `https://remote.example/${longText(rng)}` }),
    () => activity(rng, pools, { type: "Announce", object: `http://${pools.domain}/users/${longText(rng)}/statuses/1` }),
    () => activity(rng, pools, { type: "Delete", object: "https://remote.example/users/mallory" }),
    () => activity(rng, pools, { type: "Undo", object: { type: "Follow", object: local } }),
    () => activity(rng, pools, { type: longText(rng), object: longText(rng) }),
  ];
  return JSON.stringify(rng.pick(shapes)());
}

/** Nested past any parser's or JSON-LD processor's comfort, or past the size limit. */
function hostile(rng: Random, pools: Pools): string {
  // From an actor on the activity's own server, so that the activity gets past the cheap checks to the costly ones.
  const base = JSON.stringify(activity(rng, pools, { type: "Create" }, MALLORY)).slice(0, -1);
  return rng.pick([
    () => `${base},"object":${nested('{"a":', "}", rng.pick([20, 3_000, 50_000]), "1")}}`,
    () => `${base},"to":${nested("[", "]", rng.pick([17, 20_000, 100_000]))}}`,
    () => `${base},"to":[${Array.from({ length: rng.pick([10_001, 60_000]) }, () => '"x"').join(",")}]}`,
    () => `${base},"content":"${"a".repeat(rng.pick([900_000, 1_100_000]))}"}`,
    () => `${base},"content":${JSON.stringify("[{".repeat(rng.pick([5_000, 200_000])))}}`,
  ])();
}

function malformed(rng: Random): string {
  return rng.pick(["", "{", "null", "[]", '"x"', "1e999", '{"type":"Create",', "\u0000\ud800", '{"@context":{"@context":{"@context":{}}}}', '{"__proto__":{"type":"Create"}}', "[".repeat(100_000)]);
}

function signatureHeaders(rng: Random): Record<string, string> {
  return rng.pick<Record<string, string>>([
    {},
    { signature: 'keyId="https://remote.example/users/mallory#main-key",headers="(request-target) host date digest",signature="AAAA"', date: new Date().toUTCString(), digest: "SHA-256=AAAA" },
    { signature: longText(rng), date: "yesterday" },
    { signature: `keyId="${longText(rng)}",signature="x"` },
    { "signature-input": "sig1=();created=1", signature: "sig1=:AAAA:" },
  ]);
}

export function inboxRequest(rng: Random, op: Operation, pools: Pools, request: FuzzRequest): FuzzRequest {
  const username = rng.pick([rng.pick(pools.usernames), rng.pick(pools.usernames), "nobody", longText(rng)]);
  request.target = op.path.replace("{username}", encodeURIComponent(username));
  const kind = rng.weighted({ plausible: 45, hostile: 35, malformed: 20 });
  const text = kind === "plausible" ? plausible(rng, pools) : kind === "hostile" ? hostile(rng, pools) : malformed(rng);
  request.strategy = "inbox";
  request.auth = `inbox (${kind})`;
  request.headers = { "content-type": rng.pick(["application/activity+json", 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"', "application/json", "text/plain"]), ...signatureHeaders(rng) };
  request.body = wtf8(text);
  request.chunked = rng.chance(0.1);
  return request;
}
