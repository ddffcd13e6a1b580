// E-mail addresses at sign-up (POST /api/v1/accounts) follow Mastodon's rule (domain/accounts/email.ts):
// dotless domains such as localhost are fine, anything that is not one bare address is 422.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, passwordToken, type ClientApp } from "../helpers/clients.ts";

let t: TestApp;
let client: ClientApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ WARREN_REGISTRATIONS: "open" });
  client = await createClientApp(t);
  token = (await appToken(t, client, "read write")).access_token;
});
afterAll(() => t.close());

let serial = 0;
function signUp(email: string) {
  const username = `mailer${++serial}`;
  return t.request("/api/v1/accounts", {
    method: "POST",
    token,
    form: { username, email, password: "correct horse", agreement: "true" },
  });
}

describe("sign-up e-mail addresses", () => {
  test("a dotless domain (Mastodon's own admin@localhost) is accepted, and the address signs in", async () => {
    const res = await signUp("Admin@LocalHost");
    expect(res.status).toBe(200);
    expect((await passwordToken(t, client, "admin@localhost", "correct horse")).access_token).toBeString();
  });

  test("what Mastodon's mail parser accepts is accepted", async () => {
    for (const email of ["first.last+tag@example.com", "o'brien@sub.example.org", "a..b.@example.com", "user@[192.0.2.1]", "ユーザー@例え.jp"]) {
      expect({ email, status: (await signUp(email)).status }).toEqual({ email, status: 200 });
    }
  });

  test("anything else is 422 with details.email", async () => {
    const refused = [
      "no-at.example.com", "two@at@example.com", "trailing@", "@leading.example", "spa ce@example.com",
      "tab\t@example.com", "nbsp\u00a0x@example.com", "Name <name@example.com>", "<name@example.com>",
      "name(comment)@example.com", '"quoted"@example.com', "per%cent@example.com", "com,ma@example.com",
      "back\\slash@example.com", "dot@example.com.", "...@example.com", "bracket@[192.0.2.1", "bracket@[1.2]x",
      `${"a".repeat(320)}@example.com`,
    ];
    for (const email of refused) {
      const res = await signUp(email);
      const body = (await res.json()) as { details?: Record<string, unknown> };
      expect({ email, status: res.status, details: body.details }).toEqual({
        email,
        status: 422,
        details: { email: [{ error: "ERR_INVALID", description: "is invalid" }] },
      });
    }
  });
});
