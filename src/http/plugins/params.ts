// One parameter normaliser for every route: JSON, form-encoded and multipart bodies and query strings all
// become the same shape before the TypeBox schemas see them. Rails-style keys are nested: `ids[]=1&ids[]=2`
// → `{ids: ["1","2"]}`, `poll[options][]`, `fields_attributes[0][name]`, `keywords_attributes[][keyword]`.
// Scalars stay strings (JSON numbers become strings too), booleans stay booleans, nulls are dropped, files
// stay Files. Schemas therefore describe form semantics; see http/schemas.ts for the helpers. Parameters a
// route does not declare are dropped before validation, as Rails' strong parameters do (clients send extras).
import { Elysia, type AnyElysia } from "elysia";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { BadRequest } from "../../lib/errors.ts";

type Value = string | boolean | File | Value[] | { [key: string]: Value };
type Bag = { [key: string]: Value };

const MAX_PARAMS = 1000;

function parseKey(key: string): string[] {
  const first = key.indexOf("[");
  if (first <= 0 || !key.endsWith("]")) return [key];
  const parts = [key.slice(0, first)];
  for (const match of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1]!);
  return parts;
}

function assign(bag: Bag, path: string[], value: Value): void {
  let node: any = bag;
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    const last = i === path.length - 1;
    const nextIsArray = !last && path[i + 1] === "";
    if (part === "") {
      if (!Array.isArray(node)) return;
      if (last) {
        node.push(value);
        return;
      }
      // `a[][b]`: start a new element when the current one already has `b` (Rails semantics).
      const tail = node[node.length - 1];
      const nextKey = path[i + 1]!;
      if (tail && typeof tail === "object" && !Array.isArray(tail) && !(nextKey in tail)) {
        node = tail;
      } else {
        const fresh = {};
        node.push(fresh);
        node = fresh;
      }
      continue;
    }
    if (typeof node !== "object" || node === null || Array.isArray(node)) return;
    if (last) {
      node[part] = value;
      return;
    }
    const existing = node[part];
    if (nextIsArray) {
      if (!Array.isArray(existing)) node[part] = [];
    } else if (typeof existing !== "object" || existing === null || Array.isArray(existing) || existing instanceof File) {
      node[part] = {};
    }
    node = node[part];
  }
}

/** Objects whose keys are all indices (`fields_attributes[0][name]`) become arrays in index order. */
function indexedToArrays(value: Value): Value {
  if (Array.isArray(value)) return value.map(indexedToArrays);
  if (typeof value !== "object" || value === null || value instanceof File) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, indexedToArrays(value[k]!)] as const);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

export function nestEntries(entries: Iterable<[string, string | File]>): Bag {
  const bag: Bag = {};
  let count = 0;
  for (const [key, value] of entries) {
    if (++count > MAX_PARAMS) throw new BadRequest("Too many parameters");
    assign(bag, parseKey(key), value);
  }
  return indexedToArrays(bag) as Bag;
}

/** JSON bodies get the same scalar conventions as forms. */
export function normaliseJson(value: unknown): Value | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "boolean" || typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : undefined;
  if (Array.isArray(value)) return value.map(normaliseJson).filter((v): v is Value => v !== undefined);
  if (typeof value === "object") {
    const out: Bag = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normaliseJson(v);
      if (n !== undefined) out[k.endsWith("[]") ? k.slice(0, -2) : k] = n;
    }
    return out;
  }
  return undefined;
}

export function parseQuery(url: string): Bag {
  const q = url.indexOf("?");
  if (q < 0) return {};
  return nestEntries(new URLSearchParams(url.slice(q + 1)));
}

async function parseBody(request: Request, contentType: string): Promise<Bag> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || type.endsWith("+json")) {
    const text = await request.text();
    if (text.trim() === "") return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new BadRequest("Error occurred while parsing request parameters");
    }
    const value = normaliseJson(parsed);
    return value && typeof value === "object" && !Array.isArray(value) && !(value instanceof File) ? value : {};
  }
  if (type === "application/x-www-form-urlencoded") {
    return nestEntries(new URLSearchParams(await request.text()));
  }
  if (type === "multipart/form-data") {
    const form = await request.formData().catch(() => {
      throw new BadRequest("Error occurred while parsing request parameters");
    });
    return nestEntries(form.entries() as unknown as Iterable<[string, string | File]>);
  }
  return {};
}

// Our parser handles every body (an empty JSON body is `{}`, as Rails treats it; Elysia's own multipart
// parser would turn a text field such as "[1, 2]" into an array). The three declarative entries after it
// never run: they only tell the OpenAPI generator which content types every route accepts.
const DOCUMENTED_CONTENT_TYPES = ["json", "urlencoded", "formdata"].map((fn) => ({ fn }) as any);

/** Each route's query and body schemas, by "METHOD /path/:pattern"; filled by indexRouteSchemas(). */
const routeSchemas = new Map<string, { query?: TSchema; body?: TSchema }>();

/** Called once the app is composed: lets the normaliser drop undeclared parameters before validation. */
export function indexRouteSchemas(app: AnyElysia): void {
  for (const route of app.routes as { method: string; path: string; hooks?: { query?: TSchema; body?: TSchema } }[]) {
    routeSchemas.set(`${route.method} ${route.path}`, { query: route.hooks?.query, body: route.hooks?.body });
  }
}

function undeclaredDropped(schema: TSchema | undefined, value: Bag): Bag {
  if (!schema || typeof schema !== "object" || !("type" in schema) || schema.type !== "object") return value;
  return Object.keys(value).length === 0 ? value : (Value.Clean(schema, value) as Bag);
}

export const paramsPlugin = new Elysia({ name: "warren-params" })
  .onParse({ as: "global" }, async ({ request, contentType }) => parseBody(request, contentType ?? ""))
  .onParse({ as: "global" }, DOCUMENTED_CONTENT_TYPES[0])
  .onParse({ as: "global" }, DOCUMENTED_CONTENT_TYPES[1])
  .onParse({ as: "global" }, DOCUMENTED_CONTENT_TYPES[2])
  .onTransform({ as: "global" }, (ctx) => {
    const schemas = routeSchemas.get(`${ctx.request.method} ${(ctx as unknown as { route: string }).route}`);
    ctx.query = undeclaredDropped(schemas?.query, parseQuery(ctx.request.url)) as any;
    const body = ctx.body === undefined || ctx.body === null ? {} : (ctx.body as Bag);
    ctx.body = undeclaredDropped(schemas?.body, body) as any;
  });
