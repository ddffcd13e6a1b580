// What a scenario's setup may do, the way clients and operators do it: CLI for users, API for the rest.
import type { Warren } from "./servers.ts";

export const SCOPES = "read write follow push";

export interface User {
  username: string;
  email: string;
  password: string;
  token: string;
}

interface ClientApp {
  client_id: string;
  client_secret: string;
}

export class BenchClient {
  private app: ClientApp | null = null;

  constructor(readonly warren: Warren) {}

  /** Sends a request to Warren and fails loudly unless it answers `expect`. */
  async api<T = unknown>(path: string, init: { method?: string; token?: string; json?: unknown; form?: Record<string, string>; expect?: number } = {}): Promise<T> {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body: string | undefined;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(this.warren.url + path, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
    const text = await res.text();
    if (res.status !== (init.expect ?? 200)) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** A confirmed user created with the CLI, signed in through an app and the password grant. */
  async user(username: string): Promise<User> {
    const email = `${username}@bench.example`;
    const created = await this.warren.cli("accounts", "create", username, `--email=${email}`, "--confirmed", "--approve");
    const password = /^New password: (\S+)$/m.exec(created.stdout)?.[1];
    if (created.code !== 0 || !password) throw new Error(`accounts create ${username} failed (${created.code}): ${created.stdout}${created.stderr}`);
    const app = (this.app ??= await this.api<ClientApp>("/api/v1/apps", {
      json: { client_name: "warren bench", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: SCOPES },
    }));
    const grant = await this.api<{ access_token: string }>("/oauth/token", {
      form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: email, password, scope: SCOPES },
    });
    return { username, email, password, token: grant.access_token };
  }
}
