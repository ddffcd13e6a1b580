// Starts an in-process app on a fresh temporary data directory. Tests talk to it through real HTTP
// requests handled by `app.handle`, exactly as a client would.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { buildApp, createDeps } from "../../src/app.ts";
import type { AppDeps } from "../../src/deps.ts";

export const BASE = "http://localhost:3000";

export interface TestApp {
  deps: AppDeps;
  app: ReturnType<typeof buildApp>;
  dir: string;
  /** Sends a request; `path` is relative to the instance URL. */
  request(path: string, init?: TestRequestInit): Promise<Response>;
  close(): Promise<void>;
}

export type TestRequestInit = RequestInit & { token?: string; json?: unknown; form?: Record<string, string> };

/** A request as the tests send it: a bearer `token`, a `json` or `form` body with its content type. */
export function testRequest(url: string, init: TestRequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(init.form).toString();
  }
  return new Request(url, { ...init, headers, body });
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), "warren-test-"));
  // Every answer is checked against its route's schema (and timeline pages, sent as text, against their
  // Status objects: http/cache/rendered-statuses.ts), so the OpenAPI document stays true; a mismatch is a 500.
  // WARREN_CHECK_RESPONSES=off in the environment skips the checks (about a fifth faster).
  const checks = { WARREN_CHECK_RESPONSES: process.env.WARREN_CHECK_RESPONSES ?? "on" };
  const config = loadConfig({ WARREN_DATA_DIR: dir, WARREN_URL: BASE, WARREN_JOB_WORKERS: "0", WARREN_RATE_LIMITS: "off", ...checks, ...env });
  const deps = createDeps(config);
  const app = buildApp(deps);
  await app.modules;
  deps.jobs.start();
  return {
    deps,
    app,
    dir,
    request: (path, init = {}) => app.handle(testRequest(BASE + path, init)),
    async close() {
      await deps.jobs.stop();
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
