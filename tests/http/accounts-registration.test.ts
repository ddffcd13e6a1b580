// POST /api/v1/accounts: sign-up with an app token, in each registration mode, and its validation errors.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { ALL, appToken, createClientApp, signedInUser, type ClientApp } from "../helpers/clients.ts";

let open: TestApp;
let client: ClientApp;
let token: string;

beforeAll(async () => {
  open = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  client = await createClientApp(open);
  token = (await appToken(open, client, "read write")).access_token;
});
afterAll(() => open.close());

const valid = (name: string) => ({ username: name, email: `${name}@example.com`, password: "correct horse", agreement: "true" });

function register(t: TestApp, bearer: string | undefined, form: Record<string, string>) {
  return t.request("/api/v1/accounts", { method: "POST", token: bearer, form });
}

describe("open registrations", () => {
  test("answers a Token with the app's scopes that works on verify_credentials", async () => {
    const res = await register(open, token, { ...valid("newbie"), locale: "pt-BR", reason: "hello" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["access_token", "created_at", "scope", "token_type"]);
    expect(body.token_type).toBe("Bearer");
    expect(body.scope).toBe(ALL);
    expect(typeof body.created_at).toBe("number");

    const me = await open.request("/api/v1/accounts/verify_credentials", { token: body.access_token as string });
    expect(me.status).toBe(200);
    const account = (await me.json()) as { username: string; acct: string; role: { id: string; name: string } };
    expect(account.username).toBe("newbie");
    expect(account.acct).toBe("newbie");
    expect(account.role).toMatchObject({ id: "-99", name: "" });

    const lookup = await open.request("/api/v1/accounts/lookup?acct=newbie");
    expect(lookup.status).toBe(200);
  });

  test("accepts JSON with a boolean agreement", async () => {
    const res = await open.request("/api/v1/accounts", { method: "POST", token, json: { ...valid("jsonuser"), agreement: true } });
    expect(res.status).toBe(200);
  });

  test("accepts multipart bodies", async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries(valid("multipart"))) form.set(key, value);
    const res = await open.request("/api/v1/accounts", { method: "POST", token, body: form });
    expect(res.status).toBe(200);
  });
});

describe("authorisation", () => {
  test("no token is 401", async () => {
    const res = await register(open, undefined, valid("anon"));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "The access token is invalid" });
  });

  test("an unknown token is 401", async () => {
    const res = await register(open, "not-a-token", valid("anon"));
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "The access token is invalid" });
  });

  test("an app token without write:accounts is 403", async () => {
    const readOnly = (await appToken(open, client, "read")).access_token;
    const res = await register(open, readOnly, valid("scoped"));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This action is outside the authorized scopes" });
  });

  test("write:accounts alone is enough", async () => {
    const narrow = (await appToken(open, client, "write:accounts")).access_token;
    const res = await register(open, narrow, valid("narrow"));
    expect(res.status).toBe(200);
  });

  test("a user token is 403", async () => {
    const user = await signedInUser(open, "existing");
    const res = await register(open, user.token, valid("viauser"));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: "This method requires an client credentials authentication" });
  });
});

describe("validation", () => {
  async function details(form: Record<string, string>) {
    const res = await register(open, token, form);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: string; details: Record<string, { error: string; description: string }[]> };
    expect(body.error).toStartWith("Validation failed: ");
    return body.details;
  }

  test("an empty body lists every missing field", async () => {
    const res = await register(open, token, {});
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: "Validation failed: Username can't be blank, Email can't be blank, Password can't be blank, Agreement must be accepted",
      details: {
        username: [{ error: "ERR_BLANK", description: "can't be blank" }],
        email: [{ error: "ERR_BLANK", description: "can't be blank" }],
        password: [{ error: "ERR_BLANK", description: "can't be blank" }],
        agreement: [{ error: "ERR_ACCEPTED", description: "must be accepted" }],
      },
    });
  });

  test("invalid values", async () => {
    expect(await details({ username: "bad name!", email: "nope", password: "short", agreement: "false", locale: "not a locale!" })).toEqual({
      username: [{ error: "ERR_INVALID", description: "must contain only letters, numbers and underscores" }],
      email: [{ error: "ERR_INVALID", description: "is invalid" }],
      password: [{ error: "ERR_TOO_SHORT", description: "is too short (minimum is 8 characters)" }],
      agreement: [{ error: "ERR_ACCEPTED", description: "must be accepted" }],
      locale: [{ error: "ERR_INCLUSION", description: "is not included in the list" }],
    });
  });

  test("values over their limits", async () => {
    expect(await details({ ...valid("a".repeat(31)), password: "p".repeat(73), reason: "r".repeat(421) })).toEqual({
      username: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 30 characters)" }],
      password: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 72 characters)" }],
      reason: [{ error: "ERR_TOO_LONG", description: "is too long (maximum is 420 characters)" }],
    });
  });

  test("taken username and e-mail, whatever their case", async () => {
    expect((await register(open, token, valid("taken"))).status).toBe(200);
    expect(await details({ ...valid("TAKEN"), email: "Taken@Example.COM" })).toEqual({
      username: [{ error: "ERR_TAKEN", description: "has already been taken" }],
      email: [{ error: "ERR_TAKEN", description: "has already been taken" }],
    });
  });

  test("reserved usernames", async () => {
    expect(await details(valid("admin"))).toEqual({ username: [{ error: "ERR_RESERVED", description: "is reserved" }] });
  });

  test("usernames are ASCII letters, digits and underscores only; addresses need a domain", async () => {
    for (const username of ["ñandú", "🐇", "with space", "dot.ted", "dash-ed", "at@sign"]) {
      expect(await details({ ...valid("unique"), username })).toEqual({
        username: [{ error: "ERR_INVALID", description: "must contain only letters, numbers and underscores" }],
      });
    }
    for (const email of ["nodomain@", "@example.com", "no-at.example.com", "two@@example.com", "spa ce@example.com"]) {
      expect(await details({ ...valid("unique"), email })).toEqual({ email: [{ error: "ERR_INVALID", description: "is invalid" }] });
    }
    expect((await register(open, token, valid("Under_score_9"))).status).toBe(200);
  });

  test("every field of the wrong shape is 422, and nothing is created", async () => {
    for (const field of ["username", "email", "password", "locale", "reason"]) {
      const res = await open.request("/api/v1/accounts", { method: "POST", token, json: { ...valid("shaped"), agreement: true, [field]: { nested: "x" } } });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: string }).error).toStartWith(`Validation failed: ${field} `);
    }
    expect((await open.request("/api/v1/accounts/lookup?acct=shaped")).status).toBe(404);
  });

  test("wrong-typed parameters are 422, not 500", async () => {
    const res = await open.request("/api/v1/accounts", { method: "POST", token, json: { ...valid("typed"), username: ["typed"] } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toStartWith("Validation failed");
  });

  test("a rejected sign-up leaves nothing behind", async () => {
    await details({ ...valid("leftover"), agreement: "0" });
    expect((await open.request("/api/v1/accounts/lookup?acct=leftover")).status).toBe(404);
    expect((await register(open, token, valid("leftover"))).status).toBe(200);
  });
});

describe("registration modes", () => {
  async function signUpIn(env: Record<string, string>, name: string) {
    const t = await startTestApp(env);
    try {
      const app = await createClientApp(t);
      const bearer = (await appToken(t, app, "write")).access_token;
      const res = await register(t, bearer, valid(name));
      const body = (await res.json()) as { access_token?: string; error?: string };
      if (res.status !== 200) return { status: res.status, body, me: null, lookup: null };
      const me = await t.request("/api/v1/accounts/verify_credentials", { token: body.access_token });
      const lookup = await t.request(`/api/v1/accounts/lookup?acct=${name}`);
      return { status: res.status, body, me: { status: me.status, body: await me.json() }, lookup: lookup.status };
    } finally {
      await t.close();
    }
  }

  test("closed: 403 Forbidden", async () => {
    const result = await signUpIn({ WARREN_REGISTRATIONS: "closed" }, "shut");
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ error: "Forbidden" });
  });

  test("approval: the token exists but the login is pending and the account hidden", async () => {
    const result = await signUpIn({ WARREN_REGISTRATIONS: "approval" }, "waiting");
    expect(result.status).toBe(200);
    expect(result.me).toEqual({ status: 403, body: { error: "Your login is currently pending approval" } });
    expect(result.lookup).toBe(404);
  });

  test("required e-mail confirmation: the login is unconfirmed", async () => {
    const result = await signUpIn({ WARREN_REGISTRATIONS: "open", WARREN_REQUIRE_EMAIL_CONFIRMATION: "true" }, "unmailed");
    expect(result.status).toBe(200);
    expect(result.me).toEqual({ status: 403, body: { error: "Your login is missing a confirmed e-mail address" } });
    expect(result.lookup).toBe(404);
  });
});
