// Client-side helpers: register apps and obtain tokens through the HTTP API, as a Mastodon client does.
// Users are created the way an operator does (the CLI's domain call), then sign in by password grant.
import { createLocalAccount } from "../../src/domain/accounts/create.ts";
import type { TestApp } from "./app.ts";
import type { RoleName } from "../../src/model/accounts.ts";

export const OOB = "urn:ietf:wg:oauth:2.0:oob";
export const ALL = "read write follow push profile";

export interface ClientApp {
  id: string;
  client_id: string;
  client_secret: string;
}

export async function createClientApp(t: TestApp, scopes = ALL, redirectUris = OOB): Promise<ClientApp> {
  const res = await t.request("/api/v1/apps", {
    method: "POST",
    json: { client_name: "test client", redirect_uris: redirectUris, scopes, website: "https://client.example" },
  });
  if (res.status !== 200) throw new Error(`app registration failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as ClientApp;
}

export async function createUser(
  t: TestApp,
  username: string,
  options: { role?: RoleName; password?: string; approved?: boolean; confirmed?: boolean } = {},
) {
  const password = options.password ?? `pw-${username}-secret`;
  const { account } = await createLocalAccount(t.deps, {
    username,
    email: `${username}@example.com`,
    password,
    role: options.role,
    approved: options.approved ?? true,
    confirmed: options.confirmed ?? true,
  });
  return { id: account.id.replace(/^0+/, ""), username, email: `${username}@example.com`, password };
}

export async function passwordToken(t: TestApp, app: ClientApp, username: string, password: string, scope = ALL) {
  const res = await t.request("/oauth/token", {
    method: "POST",
    form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password, scope },
  });
  if (res.status !== 200) throw new Error(`password grant failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; scope: string; token_type: string; created_at: number };
}

export async function appToken(t: TestApp, app: ClientApp, scope = "read") {
  const res = await t.request("/oauth/token", {
    method: "POST",
    form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope },
  });
  if (res.status !== 200) throw new Error(`client_credentials failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string };
}

/** A confirmed, approved user with a token: the usual starting point of a test. */
export async function signedInUser(t: TestApp, username: string, scope = ALL, options: { role?: RoleName } = {}) {
  const app = await createClientApp(t);
  const user = await createUser(t, username, options);
  const token = await passwordToken(t, app, username, user.password, scope);
  return { ...user, app, token: token.access_token };
}
