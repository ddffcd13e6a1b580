// The one error handler: domain ApiErrors, schema validation and parse failures become Mastodon error
// bodies with Mastodon's status codes; anything unexpected is a logged 500 that leaks nothing. Messages are
// in the client's language (`lang`, Accept-Language) where the catalogue has them (src/http/i18n).
import { Elysia } from "elysia";
import { ApiError, Unauthorized } from "../../lib/errors.ts";
import { log } from "../../lib/log.ts";
import { requestLocale } from "../i18n/locale.ts";
import { localised } from "../i18n/translate.ts";
import { RefusedBeforeBody } from "./before-body.ts";
import { bodyLeftUnread } from "./body-limits.ts";
import { releaseUploads } from "./params.ts";

function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", vary: "Authorization", ...extra },
  });
}

/** RFC 6750 §3: a 401 for a bearer token says so (Doorkeeper, and so Mastodon, sends the same). */
function challenge(error: Unauthorized): Record<string, string> {
  return { "www-authenticate": `Bearer realm="Warren", error="invalid_token", error_description="${error.message}"` };
}

interface SchemaIssue {
  path?: string;
  message?: string;
  type?: number;
  value?: unknown;
}

function fieldOf(issue: SchemaIssue): string {
  return (issue.path ?? "").replace(/^\//, "").replace(/\/(\d+)(?=\/|$)/g, "[$1]").replace(/\//g, ".") || "params";
}

/** Missing required parameters are 400 (Rails' ParameterMissing); wrong values are 422. */
function validationResponse(error: any): Response {
  if (error.type === "response") {
    log.error("response did not match its schema", { errors: error.all?.slice?.(0, 3) });
    return json(500, { error: "Internal server error" });
  }
  const issues: SchemaIssue[] = error.all ?? [];
  const missing = issues.find((i) => i.value === undefined);
  if (missing) return json(400, { error: `param is missing or the value is empty: ${fieldOf(missing)}` });
  const first = issues[0];
  const field = first ? fieldOf(first) : "params";
  const reason = first?.message && !/union/i.test(first.message) ? first.message.replace(/^Expected/, "expected") : "is invalid";
  return json(422, { error: `Validation failed: ${field} ${reason}` });
}

export const errorsPlugin = new Elysia({ name: "warren-errors" }).onError({ as: "global" }, async ({ code, error: thrown, request }) => {
  await releaseUploads({ request });
  const response = errorResponse(code, thrown);
  const locale = requestLocale(request);
  const answer = locale === "en" ? response : await localised(response, locale);
  // Refused before its body was all read (401 before reading, 413 or 408 part-way): closing the connection
  // after the answer stops the client sending the rest, which Bun would otherwise read and throw away.
  if (bodyLeftUnread(request)) answer.headers.set("connection", "close");
  return answer;
});

function errorResponse(code: string | number, thrown: unknown): Response {
  // Elysia wraps whatever a body parser throws in its ParseError: our parser's own errors (413, 408, a
  // forbidden parameter name) keep their answer.
  const cause = code === "PARSE" ? (thrown as Error).cause : undefined;
  const error = cause instanceof ApiError || cause instanceof RefusedBeforeBody ? cause : thrown;
  if (error instanceof RefusedBeforeBody) return error.response;
  if (error instanceof Unauthorized) return json(error.status, error.body(), challenge(error));
  if (error instanceof ApiError) return json(error.status, error.body());
  switch (code) {
    case "VALIDATION":
      return validationResponse(error);
    case "NOT_FOUND":
      return json(404, { error: "Not Found" });
    case "PARSE":
      return json(400, { error: "Error occurred while parsing request parameters" });
    case "INVALID_COOKIE_SIGNATURE":
      return json(400, { error: "Invalid cookie" });
    default: {
      const status = (error as any)?.status ?? (error as any)?.code;
      if (typeof status === "number" && status >= 400 && status < 500) {
        return json(status, { error: String((error as any).message ?? "Bad request") });
      }
      log.error("unhandled error", { message: String((error as any)?.message), stack: (error as any)?.stack });
      return json(500, { error: "Internal server error" });
    }
  }
}
