// What exists before the first fuzzed request: users (created with the CLI, as an operator does), an app,
// tokens of several shapes, statuses of every visibility, a follow request, a list and notifications,
// so that valid requests reach past the 404s.
import type { Credentials, Token } from "./generate.ts";
import { apiClient, must, type Api } from "./client.ts";
import type { ServerUnderTest } from "./server.ts";
import type { Pools } from "./values.ts";

const ALL = "read write follow push profile";
const OOB = "urn:ietf:wg:oauth:2.0:oob";

async function createUser(server: ServerUnderTest, username: string): Promise<string> {
  const res = await server.cli("accounts", "create", username, `--email=${username}@example.com`, "--confirmed");
  const password = /New password: (\S+)/.exec(res.stdout)?.[1];
  if (res.code !== 0 || !password) throw new Error(`accounts create ${username} failed: ${res.stdout}${res.stderr}`);
  return password;
}

async function passwordToken(api: Api, app: { client_id: string; client_secret: string }, username: string, password: string, scope: string) {
  const body = await must(api, "POST", "/oauth/token", {
    form: { grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username, password, scope },
  });
  return body.access_token as string;
}

/** A CSRF cookie and its form token from the sign-in page, so that fuzzed sign-in forms get past the check. */
async function signInForm(base: string, clientId: string): Promise<{ cookie: string; token: string }> {
  const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: OOB, scope: "read" });
  const res = await fetch(`${base}/oauth/authorize?${query}`);
  const cookie = /warren_csrf=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  const token = /name="authenticity_token" value="([^"]+)"/.exec(await res.text())?.[1];
  if (!cookie || !token) throw new Error(`fixture: no CSRF cookie and token from the sign-in page (${res.status})`);
  return { cookie, token };
}

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await Bun.sleep(100);
  }
  throw new Error(`fixture: timed out waiting for ${what}`);
}

export async function createFixtures(server: ServerUnderTest): Promise<{ pools: Pools; credentials: Credentials }> {
  const api = apiClient(server.url);
  const names = ["alice", "bob", "carol"];
  const passwords = await Promise.all(names.map((name) => createUser(server, name)));
  const app = await must(api, "POST", "/api/v1/apps", {
    json: { client_name: "fuzz", redirect_uris: [OOB, "https://client.example/cb", "myapp://cb"], scopes: ALL },
  });
  const [alice, bob, carol] = await Promise.all(names.map((name, i) => passwordToken(api, app, name, passwords[i]!, ALL))) as [string, string, string];
  const narrow = await passwordToken(api, app, "alice", passwords[0]!, "read:statuses");
  const writeFollows = await passwordToken(api, app, "bob", passwords[1]!, "write:follows");
  const appToken = (await must(api, "POST", "/oauth/token", {
    form: { grant_type: "client_credentials", client_id: app.client_id, client_secret: app.client_secret, scope: "read write" },
  })).access_token as string;
  const revoked = await passwordToken(api, app, "carol", passwords[2]!, ALL);
  await must(api, "POST", "/oauth/revoke", { form: { client_id: app.client_id, client_secret: app.client_secret, token: revoked } });
  const spareTokens = await Promise.all([0, 1, 2].map(() => passwordToken(api, app, "bob", passwords[1]!, "read")));

  const me = async (token: string) => (await must(api, "GET", "/api/v1/accounts/verify_credentials", { token })).id as string;
  const [aliceId, bobId, carolId] = await Promise.all([me(alice), me(bob), me(carol)]);
  await must(api, "PATCH", "/api/v1/accounts/update_credentials", { token: carol, json: { locked: true, note: "#fuzz carol" } });

  const post = async (token: string, json: Record<string, unknown>) => (await must(api, "POST", "/api/v1/statuses", { token, json })).id as string;
  const statuses = [
    await post(alice, { status: "Hello #fuzz #warren @bob", visibility: "public" }),
    await post(alice, { status: "unlisted #fuzz", visibility: "unlisted" }),
    await post(alice, { status: "followers only", visibility: "private" }),
    await post(alice, { status: "@bob a direct word", visibility: "direct" }),
    await post(carol, { status: "carol's #warren", visibility: "public", spoiler_text: "cw" }),
  ];
  statuses.push(await post(bob, { status: "@alice a reply", in_reply_to_id: statuses[0] }));
  await must(api, "POST", `/api/v1/accounts/${aliceId}/follow`, { token: bob });
  await must(api, "POST", `/api/v1/accounts/${bobId}/follow`, { token: alice });
  await must(api, "POST", `/api/v1/accounts/${carolId}/follow`, { token: alice });
  for (const action of ["favourite", "reblog", "bookmark"]) await must(api, "POST", `/api/v1/statuses/${statuses[0]}/${action}`, { token: bob });
  const list = (await must(api, "POST", "/api/v1/lists", { token: alice, json: { title: "fuzz list" } })).id as string;
  await must(api, "POST", `/api/v1/lists/${list}/accounts`, { token: alice, json: { account_ids: [bobId] } });

  // Notifications are written by jobs on worker threads: wait for them.
  const notifications = await until(async () => {
    const body = await must(api, "GET", "/api/v1/notifications", { token: alice });
    return Array.isArray(body) && body.length >= 3 ? (body as { id: string }[]).map((n) => n.id) : undefined;
  }, "alice's notifications");
  const grouped = await must(api, "GET", "/api/v2/notifications", { token: alice });
  const groupKeys = (grouped.notification_groups as { group_key: string }[]).map((g) => g.group_key);

  const csrf = await signInForm(server.url, app.client_id);

  const token = (label: string, value: string): Token => ({ label, token: value });
  return {
    pools: {
      domain: new URL(server.url).host,
      accounts: [aliceId, bobId, carolId],
      usernames: names,
      passwords,
      csrf,
      statuses,
      lists: [list],
      notifications,
      groupKeys,
      tags: ["fuzz", "warren", "nothing", "caf\u00e9", "\u00fcml\u00e4ut"],
      apps: [app],
      spareTokens,
      streamToken: alice,
    },
    credentials: {
      user: [token(`alice (${ALL})`, alice), token(`bob (${ALL})`, bob), token(`carol, locked (${ALL})`, carol)],
      narrow: [token("alice (read:statuses)", narrow), token("bob (write:follows)", writeFollows)],
      app: [token("app (client_credentials: read write)", appToken)],
      revoked: [token("carol (revoked)", revoked)],
    },
  };
}
