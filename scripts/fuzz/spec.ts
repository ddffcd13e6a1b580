// The operations of Warren's /openapi/json, reduced to what the generator needs: parameters, the body
// schema and how the route must be driven (plain HTTP, a server-sent event stream, or the WebSocket).

/** The subset of JSON Schema that Warren's TypeBox schemas publish. */
export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
}

export interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: Schema;
}

/** "inbox": the ActivityPub inboxes, added by the fuzzer itself (inbox.ts); sent as plain HTTP. */
export type OperationKind = "http" | "sse" | "websocket" | "inbox";

export interface Operation {
  /** "GET /api/v1/statuses/{id}": the key of the per-operation counts. */
  key: string;
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  /** Scopes named by the route's security requirement; empty when none is declared. */
  scopes: string[];
  kind: OperationKind;
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  security?: Record<string, string[]>[];
  responses?: Record<string, unknown>;
}

function kindOf(path: string, op: OpenApiOperation): OperationKind {
  if (op.responses && "101" in op.responses) return "websocket";
  if (path.startsWith("/api/v1/streaming/") && path !== "/api/v1/streaming/health") return "sse";
  return "http";
}

export function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const upper = method.toUpperCase();
      const parameters = (op.parameters ?? [])
        .filter((p) => p.in === "path" || p.in === "query" || p.in === "header")
        .map((p) => ({ name: p.name, in: p.in as Parameter["in"], required: p.required ?? false, schema: p.schema ?? {} }));
      const content = op.requestBody?.content ?? {};
      const body = (content["application/json"] ?? content["multipart/form-data"] ?? Object.values(content)[0])?.schema;
      const scopes = (op.security ?? []).flatMap((requirement) => Object.values(requirement).flat());
      operations.push({ key: `${upper} ${path}`, method: upper, path, parameters, body, scopes, kind: kindOf(path, op) });
    }
  }
  return operations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
