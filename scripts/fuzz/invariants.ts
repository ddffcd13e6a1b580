// What hostile requests must never change for later, innocent ones: a new sign-up is a plain user, and a
// post that names no visibility is public, readable by anyone, with exactly the text that was sent.
import { apiClient } from "./client.ts";

/** The "everyone" role's only permission bit (Mastodon's invite_users). */
const EVERYONE_PERMISSIONS = 1 << 16;
const STAFF_ROLES = new Set(["Owner", "Admin", "Moderator"]);

export async function checkInvariants(base: string, tag: string): Promise<string[]> {
  const api = apiClient(base);
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => {
    if (!ok) problems.push(what);
  };

  const app = await api("POST", "/api/v1/apps", { json: { client_name: `check ${tag}`, redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read write" } });
  if (app.status !== 200) return [`app registration answered ${app.status}: ${JSON.stringify(app.body)}`];
  const grant = await api("POST", "/oauth/token", {
    form: { grant_type: "client_credentials", client_id: app.body.client_id, client_secret: app.body.client_secret, scope: "read write" },
  });
  if (grant.status !== 200) return [`client_credentials grant answered ${grant.status}: ${JSON.stringify(grant.body)}`];
  const username = `check${tag}`;
  const signUp = await api("POST", "/api/v1/accounts", {
    token: grant.body.access_token,
    json: { username, email: `${username}@example.com`, password: `pw-${username}-secret`, agreement: true, locale: "en" },
  });
  if (signUp.status !== 200) return [`sign-up answered ${signUp.status}: ${JSON.stringify(signUp.body)}`];
  const token = signUp.body.access_token as string;

  const me = await api("GET", "/api/v1/accounts/verify_credentials", { token });
  if (me.status !== 200) return [`verify_credentials of a new sign-up answered ${me.status}: ${JSON.stringify(me.body)}`];
  const role = me.body.role ?? {};
  expect(!STAFF_ROLES.has(role.name), `a new sign-up has the role ${JSON.stringify(role.name)}`);
  expect((Number(role.permissions) & ~EVERYONE_PERMISSIONS) === 0, `a new sign-up has the permissions ${role.permissions}`);
  expect(me.body.username === username, `a new sign-up is called ${JSON.stringify(me.body.username)}`);
  expect(me.body.locked === false && me.body.bot === false, "a new sign-up is locked or a bot");
  expect(me.body.source?.privacy === "public", `a new sign-up posts as ${JSON.stringify(me.body.source?.privacy)} by default`);
  expect(Array.isArray(me.body.roles) && me.body.roles.length === 0, `a new sign-up shows the badges ${JSON.stringify(me.body.roles)}`);

  const texts = { json: `plain json post ${tag}`, form: `plain form post ${tag}` };
  for (const [encoding, text] of Object.entries(texts)) {
    const created = await api("POST", "/api/v1/statuses", encoding === "json" ? { token, json: { status: text } } : { token, form: { status: text } });
    if (created.status !== 200) {
      problems.push(`a ${encoding} post without visibility answered ${created.status}: ${JSON.stringify(created.body)}`);
      continue;
    }
    const status = created.body;
    expect(status.visibility === "public", `a ${encoding} post without visibility is ${JSON.stringify(status.visibility)}`);
    expect(String(status.content).includes(text), `a ${encoding} post reads ${JSON.stringify(status.content)}`);
    expect(status.sensitive === false && status.spoiler_text === "", `a ${encoding} post without a warning is sensitive or has one`);
    expect(status.in_reply_to_id === null, `a ${encoding} post is a reply to ${status.in_reply_to_id}`);
    const anonymous = await api("GET", `/api/v1/statuses/${status.id}`);
    expect(anonymous.status === 200, `a public post is not readable anonymously (${anonymous.status})`);
  }
  return problems;
}
