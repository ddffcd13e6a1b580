// One request per (seed, index): pick a strategy, build valid parameters from the operation's schemas,
// spoil them, encode them (JSON, form, multipart, or something broken) and choose who is asking.
import { bag, formEncode, jsonEncode, multipartEncode, percentEncode, railsPairs, wtf8, type Bag } from "./encode.ts";
import { QUERY_ABUSE, lyingContentType, malformedBody } from "./malformed.ts";
import { STRATEGY_WEIGHTS, mutate, type Place, type Strategy } from "./mutate.ts";
import { Random } from "./random.ts";
import { rawRequest } from "./raw.ts";
import { included, validObject, validValue } from "./schema-values.ts";
import type { Operation, OperationKind } from "./spec.ts";
import { inboxRequest } from "./inbox.ts";
import { badId, longText, unicodeEdge, type Pools } from "./values.ts";

export interface Token {
  /** Who holds it, for the report: "alice (read write follow push profile)". */
  label: string;
  token: string;
}

export interface Credentials {
  user: Token[];
  narrow: Token[];
  app: Token[];
  revoked: Token[];
}

export interface FuzzRequest {
  index: number;
  operation: string;
  kind: OperationKind;
  strategy: Strategy;
  auth: string;
  method: string;
  /** Path and query, already encoded. */
  target: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** WebSocket frames to send once the socket is open. */
  frames?: (string | Uint8Array)[];
  /** Send the body as a chunked stream in a few pieces (no Content-Length). */
  chunked?: boolean;
  /** The whole request as bytes, written on a socket instead of going through fetch. */
  raw?: Uint8Array;
}

export interface Generator {
  operations: Operation[];
  pools: Pools;
  credentials: Credentials;
  strategies: Partial<Record<Strategy, number>>;
}

const AUTH_WEIGHTS = { none: 15, user: 45, narrow: 12, app: 10, revoked: 5, garbage: 8, queryToken: 5 };

function garbageAuthorization(rng: Random, token: string): string {
  return rng.pick([
    "",
    "Bearer",
    "Bearer ",
    `Bearer ${"x".repeat(10_000)}`,
    "Basic YWxpY2U6cGFzc3dvcmQ=",
    `bearer ${token}`,
    `Bearer ${token} extra`,
    `Bearer ${token.toUpperCase()}`,
    `Bearer ${token.slice(0, -1)}`,
    "Bearer \u00ff\u00e9\u00e0",
    "Bearer ../../../../",
    `Token ${token}`,
  ]);
}

/** Headers some clients and most attackers add: origins, forwarded addresses, cookies, conditionals. */
function noiseHeaders(rng: Random, op: Operation, pools: Pools, headers: Record<string, string>): void {
  if (op.path.startsWith("/oauth/") && rng.chance(0.9)) {
    const session = rng.pick(["", "x", "1.2.3", "a".repeat(4000), "\u00ff\u00fe", "eyJhIjoxfQ.sig", "%00"]);
    headers.cookie = `warren_csrf=${rng.chance(0.8) ? pools.csrf.cookie : "other"}; warren_session=${session}`;
  }
  if (!rng.chance(0.15)) return;
  const [name, value] = rng.pick<[string, string]>([
    ["origin", rng.pick(["https://evil.example", "null", "http://127.0.0.1"])],
    ["access-control-request-method", rng.pick(["DELETE", "PROPFIND", ""])],
    ["x-forwarded-for", rng.pick(["1.2.3.4", "127.0.0.1, 10.0.0.1", "::1", "not an address", "1.2.3.4, ".repeat(500)])],
    ["accept", rng.pick(["text/html", "application/activity+json", "*/*;q=0", "x".repeat(5000)])],
    ["accept-language", rng.pick(["zz", "*", "de-DE;q=abc", "\u00e9"])],
    ["if-none-match", rng.pick(['"x"', "*", "W/"])],
    ["range", rng.pick(["bytes=0-0", "bytes=-1", "bytes=99999999999-"])],
    ["cookie", rng.pick(["a=b", "=;=;=", "x".repeat(10_000)])],
  ]);
  headers[name] = value;
}

function pathFor(rng: Random, op: Operation, strategy: Strategy, pools: Pools): string {
  return op.path.replace(/\{([^}]+)\}|\*/g, (_, name: string | undefined) => {
    const param = name ?? "*";
    let value = String(validValue(rng, op.parameters.find((p) => p.name === param)?.schema ?? {}, param, op.path, pools));
    if (strategy === "badIds" || (strategy === "unicode" && rng.chance(0.5))) value = strategy === "badIds" ? badId(rng) : unicodeEdge(rng);
    if (strategy === "long" && rng.chance(0.7)) value = longText(rng);
    if (param === "*") return value;
    // Printable ASCII ids go raw half of the time, so that `..` and `%2e` reach the router as written.
    return /^[\x21-\x7e]*$/.test(value) && !/[/?#]/.test(value) && rng.chance(0.5) ? value : percentEncode(value);
  });
}

function place(values: Bag, declared: string[], required: string[]): Place {
  return { values, declared, required, raw: [] };
}

function websocketFrames(rng: Random, pools: Pools): (string | Uint8Array)[] {
  const frames = [
    () => JSON.stringify({ type: "subscribe", stream: rng.pick(["user", "public", "public:local", "direct", "user:notification"]) }),
    () => JSON.stringify({ type: "subscribe", stream: "hashtag", tag: rng.pick(pools.tags) }),
    () => JSON.stringify({ type: "subscribe", stream: "list", list: rng.pick([...pools.lists, badId(rng)]) }),
    () => JSON.stringify({ type: "unsubscribe", stream: ["hashtag", "x"] }),
    () => JSON.stringify({ type: "subscribe", stream: unicodeEdge(rng), tag: unicodeEdge(rng) }),
    () => JSON.stringify({ type: rng.pick(["subscribe", "unsubscribe"]), stream: rng.pick([1, null, {}, [[]], true]) }),
    () => '{"__proto__":{"type":"subscribe","stream":"user"},"constructor":{"prototype":{"stream":"direct"}}}',
    () => JSON.stringify({ type: "subscribe", stream: "hashtag", tag: "t".repeat(rng.pick([300, 100_000])) }),
    () => "[".repeat(10_000) + "]".repeat(10_000),
    () => "not json at all",
    () => "",
    () => wtf8("\ud800\u0000"),
    () => new Uint8Array([0, 1, 2, 255]),
  ];
  return Array.from({ length: rng.int(1, 4) }, () => rng.pick(frames)());
}

export async function generate(generator: Generator, seed: number, index: number): Promise<FuzzRequest> {
  const { operations, pools, credentials } = generator;
  const op = operations[index % operations.length]!;
  const rng = Random.forRequest(seed, index);
  const strategy = rng.weighted(generator.strategies as Record<Strategy, number>);
  const headers: Record<string, string> = {};

  const queryParams = op.parameters.filter((p) => p.in === "query");
  const query = place(bag(), queryParams.map((p) => p.name), queryParams.filter((p) => p.required).map((p) => p.name));
  for (const p of queryParams) {
    if (included(rng, p.name, p.required)) query.values[p.name] = validValue(rng, p.schema, p.name, op.path, pools);
  }
  noiseHeaders(rng, op, pools, headers);
  for (const p of op.parameters.filter((p) => p.in === "header")) {
    if (rng.chance(0.5)) headers[p.name] = String(validValue(rng, p.schema, p.name, op.path, pools));
  }
  const body = op.body
    ? place(validObject(rng, op.body, op.path, pools), Object.keys(op.body.properties ?? {}), op.body.required ?? [])
    : undefined;
  mutate(rng, strategy, body && (queryParams.length === 0 || rng.chance(0.75)) ? body : query);

  const auth = rng.weighted(AUTH_WEIGHTS);
  const holder = auth === "none" || auth === "garbage" || auth === "queryToken" ? "user" : auth;
  const token = rng.pick(credentials[holder]);
  if (auth === "garbage") headers.authorization = garbageAuthorization(rng, token.token);
  else if (auth === "queryToken") query.values.access_token = token.token;
  else if (auth !== "none") headers.authorization = `Bearer ${token.token}`;
  const label = auth === "none" ? "anonymous" : `${auth}: ${token.label}`;

  let queryString = formEncode(railsPairs(query.values), query.raw);
  if (strategy === "queryAbuse") queryString = [queryString, rng.pick(QUERY_ABUSE)].filter(Boolean).join("&");
  const target = pathFor(rng, op, strategy, pools) + (queryString ? `?${queryString}` : "");
  const method = strategy === "wrongMethod" ? rng.pick(["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE", "PROPFIND"]) : op.method;
  const request: FuzzRequest = { index, operation: op.key, kind: op.kind, strategy, auth: label, method, target, headers };
  if (op.kind === "inbox") return inboxRequest(rng, op, pools, { ...request, kind: "http", method: "POST" });

  if (strategy === "rawSocket") {
    request.kind = "http";
    request.raw = rawRequest(rng, method, target, pools.domain, headers.authorization);
    return request;
  }
  if (op.kind === "websocket") {
    request.frames = websocketFrames(rng, pools);
    // Without the upgrade headers the route is plain HTTP; fuzz that too.
    if (rng.chance(0.4)) request.kind = "http";
    return request;
  }
  // GET and HEAD requests cannot carry a body through fetch; their spoiled bodies become spoiled queries.
  if (method === "GET" || method === "HEAD" || (!body && !["POST", "PUT", "PATCH", "DELETE"].includes(method))) return request;
  if (strategy === "malformedBody") {
    const raw = malformedBody(rng);
    if (raw.contentType) headers["content-type"] = raw.contentType;
    request.body = raw.body;
    request.chunked = rng.chance(0.1);
    return request;
  }
  if (body) await attachBody(rng, request, body);
  return request;
}

/** Encodes the parameters as JSON, a form or multipart, and with `wrongContentType` mislabels them. */
async function attachBody(rng: Random, request: FuzzRequest, body: Place): Promise<void> {
  const pairs = railsPairs(body.values);
  const encoding = rng.weighted({ json: 45, form: 30, multipart: 25 });
  let contentType: string;
  if (encoding === "json") {
    contentType = "application/json";
    request.body = wtf8(jsonEncode(body.values));
  } else if (encoding === "form") {
    contentType = "application/x-www-form-urlencoded";
    request.body = wtf8(formEncode(pairs, body.raw));
  } else {
    const boundary = `----fuzz${rng.int(0, 1e9)}`;
    contentType = `multipart/form-data; boundary=${boundary}`;
    request.body = await multipartEncode(pairs, boundary, body.raw);
  }
  const lying = request.strategy === "wrongContentType";
  const sent = lying ? lyingContentType(rng, contentType) : contentType;
  if (sent) request.headers["content-type"] = sent;
  if (lying && rng.chance(0.3)) request.headers["content-encoding"] = rng.pick(["gzip", "br", "deflate", "identity, gzip", "zstd"]);
  request.chunked = rng.chance(0.1);
}

export function enabledStrategies(without: string[]): Partial<Record<Strategy, number>> {
  const unknown = without.filter((name) => !(name in STRATEGY_WEIGHTS));
  if (unknown.length > 0) throw new Error(`unknown strategies: ${unknown.join(", ")} (known: ${Object.keys(STRATEGY_WEIGHTS).join(", ")})`);
  return Object.fromEntries(Object.entries(STRATEGY_WEIGHTS).filter(([name]) => !without.includes(name)));
}
