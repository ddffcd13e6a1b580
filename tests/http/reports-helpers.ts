// Shared steps of the report tests: users (staff with admin scopes too), filing reports through the API, and
// the server rules an operator adds (through the CLI's domain call, as tests create users).
import { addRule } from "../../src/domain/instance/rules.ts";
import type { TestApp } from "../helpers/app.ts";
import { createClientApp, createUser, passwordToken } from "../helpers/clients.ts";
import { call, post, type User } from "./statuses-helpers.ts";

export { call, follow, get, newUser, post, postStatus, type Answer, type User } from "./statuses-helpers.ts";
import type { RoleName } from "../../src/model/accounts.ts";

export const STAFF_SCOPES = "read write follow push admin:read admin:write";

let counter = 0;

/** A user with a role and a token carrying `scope` (the admin scopes by default). */
export async function staffUser(t: TestApp, role: RoleName, scope = STAFF_SCOPES, prefix = role.toLowerCase()): Promise<User> {
  const username = `${prefix}${++counter}`;
  const app = await createClientApp(t, STAFF_SCOPES);
  const user = await createUser(t, username, { role });
  const token = await passwordToken(t, app, username, user.password, scope);
  return { ...user, app, token: token.access_token };
}

/** Files a report (JSON body) and returns the answer. */
export const fileReport = (t: TestApp, reporter: User, body: Record<string, unknown>) => post(t, "/api/v1/reports", reporter.token, body);

/** Files a report and returns its JSON (throws unless 200). */
export async function reported(t: TestApp, reporter: User, body: Record<string, unknown>) {
  const res = await fileReport(t, reporter, body);
  if (res.status !== 200) throw new Error(`report failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A rule of the server; returns its id as clients see it. */
export async function serverRule(t: TestApp, text: string): Promise<string> {
  const rule = await addRule(t.deps, text);
  return rule.id.replace(/^0+/, "");
}

export const admin = (t: TestApp, method: string, path: string, token: string, json?: unknown) => call(t, method, `/api/v1/admin/reports${path}`, token, json);

/** Gives the user a profile field, so that the nested `fields.*` reference keys have something to be in. */
export async function withField(t: TestApp, user: User): Promise<User> {
  const res = await t.request("/api/v1/accounts/update_credentials", {
    method: "PATCH",
    token: user.token,
    json: { fields_attributes: [{ name: "Site", value: "https://example.com" }] },
  });
  if (res.status !== 200) throw new Error(`update_credentials failed: ${res.status}`);
  return user;
}
