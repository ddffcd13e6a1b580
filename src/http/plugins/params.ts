// One parameter normaliser for every route: JSON, form-encoded and multipart bodies and query strings all
// become the same shape before the TypeBox schemas see them. Rails-style keys are nested: `ids[]=1&ids[]=2`
// → `{ids: ["1","2"]}`, `poll[options][]`, `fields_attributes[0][name]`, `keywords_attributes[][keyword]`.
// Scalars stay strings (JSON numbers become strings too), booleans stay booleans, nulls are dropped, files
// stay Files. Schemas therefore describe form semantics; see http/schemas.ts for the helpers. Parameters a
// route does not declare are dropped before validation, as Rails' strong parameters do (clients send extras),
// and so is a plain value sent where the route expects a hash or an array (`fields_attributes=undefined`).
//
// Everything here is built from hostile bytes: objects have no prototype, names that reach into one
// (`__proto__`, `constructor`, `prototype`) are refused with 400, text is cleaned of control characters
// (lib/text.ts), and bodies are read under the limits of body-limits.ts. Multipart files are streamed to
// temporary files (multipart.ts), removed once the request is answered; a route's token check runs before
// its body is read (before-body.ts).
import { Elysia, type AnyElysia } from "elysia";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import type { Config } from "../../config.ts";
import { BadRequest } from "../../lib/errors.ts";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "../../lib/json-shape.ts";
import { cleanText } from "../../lib/text.ts";
import { removeUploadedFiles, UploadedFile } from "../../lib/uploaded-file.ts";
import { noteBodyLang } from "../i18n/locale.ts";
import { beforeBodyHooks } from "./before-body.ts";
import { bodyLimitOf, checkRequestHead, readBody } from "./body-limits.ts";
import { readMultipart } from "./multipart.ts";

type Value = string | boolean | UploadedFile | Value[] | { [key: string]: Value };
type Bag = { [key: string]: Value };

/** Most names (form and query fields, or JSON keys and values) one request may carry. */
const MAX_PARAMS = 1000;
// Deepest JSON nesting accepted (MAX_JSON_DEPTH, shared with inbox bodies); Mastodon's deepest parameter is two levels down.
const FORBIDDEN_NAMES = new Set(["__proto__", "constructor", "prototype"]);

// Parameter objects inherit nothing from Object.prototype, so neither a name like `__proto__` nor a polluted
// global prototype can reach them. Their only inherited member turns them into "[object Object]" where some
// code (Elysia's validation messages, a careless String()) makes a string of one; it is a symbol, so no
// parameter name can shadow it.
const BAG_PROTOTYPE = Object.freeze(Object.create(null, { [Symbol.toPrimitive]: { value: () => "[object Object]" } }));
const emptyBag = (): Bag => Object.create(BAG_PROTOTYPE);
const isBag = (value: unknown): value is Bag =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof UploadedFile);

function checkName(name: string): string {
  if (FORBIDDEN_NAMES.has(name)) throw new BadRequest(`Parameter name not allowed: ${name}`);
  return name;
}

function parseKey(key: string): string[] {
  const first = key.indexOf("[");
  if (first <= 0 || !key.endsWith("]")) return [checkName(key)];
  const parts = [checkName(key.slice(0, first))];
  for (const match of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(checkName(match[1]!));
  return parts;
}

function assign(bag: Bag, path: string[], value: Value): void {
  let node: Bag | Value[] = bag;
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    const last = i === path.length - 1;
    if (part === "") {
      if (!Array.isArray(node)) return;
      if (last) {
        node.push(value);
        return;
      }
      // `a[][]`: each value in an array of its own, as Rack reads it (Mastodon.py sends `id[][]` for id lists).
      if (path[i + 1] === "" && i + 2 === path.length) {
        node.push([value]);
        return;
      }
      // `a[][b]`: start a new element when the current one already has `b` (Rails semantics).
      const tail: Value | undefined = node[node.length - 1];
      if (isBag(tail) && !Object.hasOwn(tail, path[i + 1]!)) {
        node = tail;
      } else {
        const fresh = emptyBag();
        node.push(fresh);
        node = fresh;
      }
      continue;
    }
    if (!isBag(node)) return;
    if (last) {
      node[part] = value;
      return;
    }
    const existing = Object.hasOwn(node, part) ? node[part] : undefined;
    if (path[i + 1] === "") {
      if (!Array.isArray(existing)) node[part] = [];
    } else if (!isBag(existing)) {
      node[part] = emptyBag();
    }
    node = node[part] as Bag | Value[];
  }
}

/** Objects whose keys are all indices (`fields_attributes[0][name]`) become arrays in index order. */
function indexedToArrays(value: Value): Value {
  if (Array.isArray(value)) return value.map(indexedToArrays);
  if (!isBag(value)) return value;
  const keys = Object.keys(value);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => indexedToArrays(value[k]!));
  }
  const out = emptyBag();
  for (const k of keys) out[k] = indexedToArrays(value[k]!);
  return out;
}

export function nestEntries(entries: Iterable<[string, string | UploadedFile]>): Bag {
  const bag = emptyBag();
  let count = 0;
  for (const [key, value] of entries) {
    if (++count > MAX_PARAMS) throw new BadRequest("Too many parameters");
    assign(bag, parseKey(key), typeof value === "string" ? cleanText(value) : value);
  }
  // The top level stays a hash whatever its names, as Rails' params do: masto.js sends an id list as `0=…&1=…`.
  const out = emptyBag();
  for (const k of Object.keys(bag)) out[k] = indexedToArrays(bag[k]!);
  return out;
}

/** JSON bodies get the same scalar conventions, name rules and limits as forms. */
export function normaliseJson(value: unknown, depth = 0, budget = { nodes: 0 }): Value | undefined {
  if (++budget.nodes > MAX_JSON_VALUES) throw new BadRequest("Too many parameters");
  if (value === null || value === undefined) return undefined;
  if (typeof value === "boolean") return value;
  if (typeof value === "string") return cleanText(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value !== "object") return undefined;
  if (depth >= MAX_JSON_DEPTH) throw new BadRequest("Request parameters are nested too deeply");
  if (Array.isArray(value)) {
    return value.map((v) => normaliseJson(v, depth + 1, budget)).filter((v): v is Value => v !== undefined);
  }
  const out = emptyBag();
  for (const k of Object.keys(value)) {
    const name = checkName(cleanText(k.endsWith("[]") ? k.slice(0, -2) : k));
    const n = normaliseJson((value as Record<string, unknown>)[k], depth + 1, budget);
    if (n !== undefined) out[name] = n;
  }
  return out;
}

export function parseQuery(url: string): Bag {
  const q = url.indexOf("?");
  if (q < 0) return emptyBag();
  return nestEntries(new URLSearchParams(url.slice(q + 1)));
}

const unparseable = () => new BadRequest("Error occurred while parsing request parameters");

type BodyLimits = Pick<Config, "maxBodyBytes" | "bodyTimeoutMs" | "dataDir">;

/** Each request's uploaded files, removed once it is answered. */
const uploadsOf = new WeakMap<Request, UploadedFile[]>();

/**
 * Removes the request's uploaded files. Upload routes call it after their handler (`afterHandle`) and the
 * error handler before answering, so no file outlives its answer; every other request's files go just after
 * the answer (onAfterResponse below).
 */
export async function releaseUploads({ request }: { request: Request }): Promise<void> {
  const files = uploadsOf.get(request);
  if (!files) return;
  uploadsOf.delete(request);
  await removeUploadedFiles(files);
}

async function parseBody(request: Request, contentType: string, limit: number, config: BodyLimits): Promise<Bag> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const isJson = type === "application/json" || type.endsWith("+json");
  if (!isJson && type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data") return emptyBag();
  if (type === "multipart/form-data") {
    const limits = { bodyBytes: limit, fieldBytes: config.maxBodyBytes, timeoutMs: config.bodyTimeoutMs, dataDir: config.dataDir };
    const { entries, files } = await readMultipart(request, contentType, limits);
    uploadsOf.set(request, files);
    return nestEntries(entries);
  }
  const bytes = await readBody(request, limit, config.bodyTimeoutMs);
  const text = new TextDecoder().decode(bytes);
  if (!isJson) return nestEntries(new URLSearchParams(text));
  if (text.trim() === "") return emptyBag();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unparseable();
  }
  const value = normaliseJson(parsed);
  return isBag(value) ? value : emptyBag();
}

// Our parser handles every body (an empty JSON body is `{}`, as Rails treats it; Elysia's own multipart
// parser would turn a text field such as "[1, 2]" into an array). The three declarative entries after it
// never run: they only tell the OpenAPI generator which content types every route accepts.
const DOCUMENTED_CONTENT_TYPES = ["json", "urlencoded", "formdata"].map((fn) => ({ fn }) as any);

type RouteSchemas = Map<string, { query?: TSchema; body?: TSchema; checks: ReturnType<typeof beforeBodyHooks> }>;

/**
 * Each app's routes' query and body schemas and head-only checks, by "METHOD /path/:pattern"; filled by
 * indexRouteSchemas(). Kept per app (by its config object): the checks are bound to one app's store, and
 * several apps run in one process in tests and benchmarks.
 */
const routeSchemasByApp = new WeakMap<BodyLimits, RouteSchemas>();

function routeSchemasOf(config: BodyLimits): RouteSchemas {
  let schemas = routeSchemasByApp.get(config);
  if (!schemas) routeSchemasByApp.set(config, (schemas = new Map()));
  return schemas;
}

type IndexedRoute = { method: string; path: string; hooks?: { query?: TSchema; body?: TSchema; transform?: unknown } };

/**
 * Called once the app is composed: lets the normaliser drop undeclared parameters before validation, and
 * the body parser run each route's token check before reading its body.
 */
export function indexRouteSchemas(app: AnyElysia, config: BodyLimits): void {
  const routeSchemas = routeSchemasOf(config);
  for (const route of app.routes as IndexedRoute[]) {
    const { query, body, transform } = route.hooks ?? {};
    routeSchemas.set(`${route.method} ${route.path}`, { query, body, checks: beforeBodyHooks(transform) });
  }
}

type SchemaNode = TSchema & { type?: string; anyOf?: SchemaNode[]; properties?: Record<string, SchemaNode> };

/** True when the schema only takes a hash or an array, so a plain value sent for it means nothing. */
function onlyTakesStructures(schema: SchemaNode): boolean {
  if (schema.anyOf) return schema.anyOf.every(onlyTakesStructures);
  return schema.type === "object" || schema.type === "array";
}

/** Rails drops a plain value sent for a hash or array parameter; so do we, at every level. */
function plainValuesForStructuresDropped(schema: SchemaNode, value: Bag): void {
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!Object.hasOwn(value, name)) continue;
    const given = value[name];
    if (!isBag(given) && !Array.isArray(given) && onlyTakesStructures(property)) delete value[name];
    else if (isBag(given) && property.type === "object") plainValuesForStructuresDropped(property, given);
  }
}

function undeclaredDropped(schema: TSchema | undefined, value: Bag): Bag {
  if (!schema || typeof schema !== "object" || !("type" in schema) || schema.type !== "object") return value;
  if (Object.keys(value).length === 0) return value;
  plainValuesForStructuresDropped(schema as SchemaNode, value);
  return Value.Clean(schema, value) as Bag;
}

export const paramsPlugin = (config: BodyLimits) => {
  const routeSchemas = routeSchemasOf(config);
  return new Elysia({ name: "warren-params", seed: config.dataDir })
    // A block body without `return`: Elysia takes a hook that returns a call's value for an async one and
    // awaits it on every request.
    .onRequest(({ request }) => {
      checkRequestHead(request);
    })
    .onParse({ as: "global" }, async (ctx) => {
      const schemas = routeSchemas.get(`${ctx.request.method} ${(ctx as unknown as { route: string }).route}`);
      // Handed on inside an array: Elysia's Sucrose takes a hook that passes its context to a function for one
      // that reads everything, and every route would then parse cookies, headers and query (instrument.ts).
      for (const check of schemas?.checks ?? []) await check(...[ctx]);
      const limit = bodyLimitOf(schemas?.body, config.maxBodyBytes);
      return parseBody(ctx.request, ctx.request.headers.get("content-type") ?? "", limit, config);
    })
    .onParse({ as: "global" }, DOCUMENTED_CONTENT_TYPES[0])
    .onParse({ as: "global" }, DOCUMENTED_CONTENT_TYPES[1])
    .onParse({ as: "global" }, DOCUMENTED_CONTENT_TYPES[2])
    .onTransform({ as: "global" }, (ctx) => {
      const schemas = routeSchemas.get(`${ctx.request.method} ${(ctx as unknown as { route: string }).route}`);
      ctx.query = undeclaredDropped(schemas?.query, parseQuery(ctx.request.url)) as any;
      const body = ctx.body === undefined || ctx.body === null ? emptyBag() : (ctx.body as Bag);
      noteBodyLang(ctx.request, body.lang);
      ctx.body = undeclaredDropped(schemas?.body, body) as any;
    })
    .onAfterResponse({ as: "global" }, ({ request }) => {
      if (uploadsOf.has(request)) void releaseUploads({ request });
    });
};
