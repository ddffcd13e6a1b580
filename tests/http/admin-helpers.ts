// Shared steps of the admin API tests: staff members with admin scopes, and plain users of every state.
import { setDefaultTimeout } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, passwordToken } from "../helpers/clients.ts";
import type { RoleName } from "../../src/model/accounts.ts";

setDefaultTimeout(30_000);

export const STAFF_SCOPES = "read write follow admin:read admin:write";

export type Staffer = Awaited<ReturnType<typeof staffUser>>;

/** A user with `role` and a token carrying `scope` (admin scopes by default), from an app allowed them. */
export async function staffUser(t: TestApp, username: string, role: RoleName, scope = STAFF_SCOPES) {
  const app = await createClientApp(t, `${STAFF_SCOPES} push profile`);
  const user = await createUser(t, username, { role });
  const token = await passwordToken(t, app, username, user.password, scope);
  return { ...user, app, token: token.access_token };
}

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export async function api(t: TestApp, method: string, path: string, token?: string, json?: unknown): Promise<Answer> {
  const res = await t.request(path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Usernames of a list answer, in order. */
export const names = (answer: Answer): string[] => (answer.body as { username: string }[]).map((a) => a.username);
