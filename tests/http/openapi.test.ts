// Every route a client may call (/api, /oauth, /.well-known, /nodeinfo) is documented: a summary, a schema
// for its success answer and for every error it can give, and an entry in /openapi/json with its
// parameters. "Can give" is checked by asking: each route is called anonymously, with bad, app, narrow and
// full tokens, with unknown and malformed ids, wrong-typed parameters and an unparseable body, and every
// status that comes back must be one the route documents.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, passwordToken, signedInUser } from "../helpers/clients.ts";

setDefaultTimeout(120_000);

interface Route {
  method: string;
  path: string;
  hooks: {
    detail?: { summary?: string; security?: Record<string, string[]>[] };
    response?: Record<string, unknown>;
    query?: { properties?: Record<string, unknown>; required?: string[] };
    body?: { properties?: Record<string, unknown> };
    params?: { properties?: Record<string, unknown> };
  };
}

const LONG = "9".repeat(3000);
const CLIENT_PATHS = /^\/(api|oauth|\.well-known|nodeinfo)(\/|$)/;
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
/** Server-sent event streams stay open on success; they are called with tokens that fail only. */
const isEventStream = (path: string) => path.startsWith("/api/v1/streaming/") && path !== "/api/v1/streaming/health";

let t: TestApp;
let routes: Route[];
let spec: any;
const tokens: Record<string, string | undefined> = {};
const ids: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  const alice = await signedInUser(t, "alice");
  const bob = await signedInUser(t, "bob");
  const status = (await (await t.request("/api/v1/statuses", { method: "POST", token: bob.token, json: { status: "hello #walk" } })).json()) as { id: string };
  tokens.none = undefined;
  tokens.bad = "not-a-token";
  tokens.app = (await appToken(t, alice.app, "read write")).access_token;
  tokens.push = (await passwordToken(t, alice.app, "alice", alice.password, "push")).access_token;
  tokens.user = alice.token;
  ids.push(bob.id, status.id, "999", "not-an-id", LONG);
  routes = (t.app.routes as unknown as Route[]).filter((r) => CLIENT_PATHS.test(r.path));
  const res = await t.request("/openapi/json");
  expect(res.status).toBe(200);
  spec = await res.json();
});
afterAll(() => t.close());

const openapiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");
const pathParams = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const declared = (route: Route) => Object.keys(route.hooks.response ?? {});

describe("every client route", () => {
  test("there are routes to check", () => {
    expect(routes.length).toBeGreaterThan(80);
  });

  test("has a summary and documents its success answer", () => {
    const problems: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      if (!route.hooks.detail?.summary?.trim()) problems.push(`${name}: no summary`);
      if (route.method === "WS") continue; // documented as its upgrade GET, below
      const codes = declared(route);
      if (!codes.some((code) => /^[23]\d\d$/.test(code))) problems.push(`${name}: no success schema (${codes})`);
    }
    expect(problems).toEqual([]);
  });

  test("with a token scheme documents 401 and 403", () => {
    const problems: string[] = [];
    for (const route of routes) {
      if (route.method === "WS" || !route.hooks.detail?.security?.some((s) => "bearer" in s)) continue;
      for (const code of ["401", "403"]) if (!declared(route).includes(code)) problems.push(`${route.method} ${route.path}: no ${code}`);
    }
    expect(problems).toEqual([]);
  });

  test("answers only statuses it documents, and never a 500", async () => {
    const problems = new Set<string>();
    const queries = [
      "",
      "?limit[]=1&max_id[x]=2&id[a]=1&acct[]=x&resource[]=y&local=maybe&tag[]=x",
      `?id[]=${LONG}&acct=${LONG}@${LONG}&resource=acct:${LONG}@localhost:3000&max_id=${LONG}&limit=${LONG}&tag=${LONG}`,
    ];
    const bodies: (RequestInit | undefined)[] = [
      undefined,
      { headers: { "content-type": "application/json" }, body: "{not json" },
      {
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: ["x"], display_name: { a: 1 }, locked: "maybe", client_name: [1], username: ["x"], title: [], limit: ["1"], id: { a: 1 }, scopes: { a: 1 } }),
      },
    ];
    for (const route of routes) {
      if (route.method === "WS") continue;
      const names = Object.keys(tokens).filter((name) => !isEventStream(route.path) || name !== "user");
      const fills = pathParams(route.path).length ? ids : [""];
      for (const id of fills) {
        const path = route.path.replace(/:(\w+)/g, encodeURIComponent(id));
        for (const name of names) {
          for (const query of queries) {
            for (const body of route.method === "GET" ? [undefined] : bodies) {
              const headers = new Headers(body?.headers);
              if (tokens[name]) headers.set("authorization", `Bearer ${tokens[name]}`);
              const res = await t.request(path + query, { method: route.method, ...body, headers });
              if (!declared(route).includes(String(res.status))) {
                problems.add(`${route.method} ${route.path} [${name}${query ? ", odd query" : ""}${body ? ", bad body" : ""}] → ${res.status} ${(await res.text()).slice(0, 80)}`);
              } else await res.body?.cancel();
            }
          }
        }
      }
    }
    expect([...problems]).toEqual([]);
  });
});

describe("/openapi/json", () => {
  test("lists every client route with its parameters, body and responses", () => {
    const problems: string[] = [];
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      const operation = spec.paths[openapiPath(route.path)]?.[route.method === "WS" ? "get" : route.method.toLowerCase()];
      if (!operation) {
        problems.push(`${name}: not in the document`);
        continue;
      }
      if (operation.summary !== route.hooks.detail?.summary) problems.push(`${name}: summary differs`);
      const parameters: { name: string; in: string; required?: boolean }[] = operation.parameters ?? [];
      for (const param of pathParams(route.path)) {
        if (!parameters.some((p) => p.in === "path" && p.name === param && p.required)) problems.push(`${name}: path parameter ${param} missing`);
      }
      for (const param of Object.keys(route.hooks.query?.properties ?? {})) {
        const documented = parameters.find((p) => p.in === "query" && p.name === param);
        if (!documented) problems.push(`${name}: query parameter ${param} missing`);
        else if (!!documented.required !== !!route.hooks.query?.required?.includes(param)) problems.push(`${name}: ${param} required-ness differs`);
      }
      if (Object.keys(route.hooks.body?.properties ?? {}).length > 0) {
        const content = operation.requestBody?.content ?? {};
        for (const type of ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"]) {
          if (!content[type]?.schema) problems.push(`${name}: no ${type} request body`);
        }
      }
      const codes = route.method === "WS" ? ["101", "401"] : declared(route);
      for (const code of codes) if (!operation.responses?.[code]) problems.push(`${name}: response ${code} missing`);
    }
    expect(problems).toEqual([]);
  });

  test("is a well-formed OpenAPI 3 document", () => {
    expect(spec.openapi).toMatch(/^3\.[01]\.\d+$/);
    expect(spec.info.title).toBe("Warren API");
    const operationIds = new Set<string>();
    const problems: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(spec.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method)) {
          problems.push(`${path}: "${method}" is not an HTTP method`);
          continue;
        }
        if (operation.operationId) {
          if (operationIds.has(operation.operationId)) problems.push(`${path}: duplicate operationId ${operation.operationId}`);
          operationIds.add(operation.operationId);
        }
        if (!operation.responses || Object.keys(operation.responses).length === 0) problems.push(`${method} ${path}: no responses`);
        for (const template of path.matchAll(/\{(\w+)\}/g)) {
          if (!operation.parameters?.some((p: any) => p.in === "path" && p.name === template[1])) problems.push(`${method} ${path}: {${template[1]}} undeclared`);
        }
        for (const requirement of operation.security ?? []) {
          for (const scheme of Object.keys(requirement)) if (!spec.components?.securitySchemes?.[scheme]) problems.push(`${method} ${path}: unknown scheme ${scheme}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("documents the WebSocket as its upgrade request", async () => {
    const operation = spec.paths["/api/v1/streaming"].get;
    expect(operation.summary).toContain("WebSocket");
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["101", "401", "404"]));
    expect((await t.request("/api/v1/streaming")).status).toBe(404); // a plain GET is not an upgrade
    expect(operation.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(["access_token", "stream", "tag", "list"]));
    expect(spec.paths["/api/v1/streaming"].ws).toBeUndefined();
  });

  test("the interactive page is served at /openapi", async () => {
    const res = await t.request("/openapi");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("openapi/json");
  });
});
