// Who may call each admin endpoint of accounts and domain blocks: Owner, Admin and Moderator as Mastodon's
// default roles allow (AccountPolicy, UserPolicy, DomainBlockPolicy, EmailDomainBlockPolicy), a plain user
// with admin scopes (403), a staff member's token without admin scopes (403), an app token (422) and no
// token at all (401).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestApp, type TestApp } from "../helpers/app.ts";
import { appToken, createClientApp, createUser } from "../helpers/clients.ts";
import { suspendAccount } from "../helpers/moderation.ts";
import { api, STAFF_SCOPES, staffUser } from "./admin-helpers.ts";
import type { RoleName } from "../../src/model/accounts.ts";

let t: TestApp;
const tokens: Record<string, string> = {};
let plainId: string;

type Caller = "Owner" | "Admin" | "Moderator" | "User" | "no admin scopes" | "app token" | "no token";
const CALLERS: Caller[] = ["Owner", "Admin", "Moderator", "User", "no admin scopes", "app token", "no token"];

beforeAll(async () => {
  t = await startTestApp();
  for (const role of ["Owner", "Admin", "Moderator", "User"] as RoleName[]) tokens[role] = (await staffUser(t, `as${role.toLowerCase()}`, role)).token;
  tokens["no admin scopes"] = (await staffUser(t, "noscope", "Admin", "read write")).token;
  tokens["app token"] = (await appToken(t, await createClientApp(t, STAFF_SCOPES), STAFF_SCOPES)).access_token;
  plainId = (await createUser(t, "plain")).id;
});
afterAll(() => t.close());

let counter = 0;
const fresh = async (options: { approved?: boolean } = {}) => (await createUser(t, `target${++counter}`, options)).id;
const suspended = async () => {
  const id = await fresh();
  await suspendAccount(t, id);
  return id;
};

interface Endpoint {
  name: string;
  /** Roles whose calls succeed (the others' are 403). */
  allowed: Caller[];
  /** A request for one caller (targets made afresh when the call changes them). */
  request: () => Promise<{ method: string; path: string; body?: unknown }>;
}

let blockCounter = 0;
const domainBlock = async () =>
  (await api(t, "POST", "/api/v1/admin/domain_blocks", tokens.Owner, { domain: `blocked${++blockCounter}.example` })).body.id as string;
const emailBlock = async () =>
  (await api(t, "POST", "/api/v1/admin/email_domain_blocks", tokens.Owner, { domain: `mail${++blockCounter}.example` })).body.id as string;

const STAFF: Caller[] = ["Owner", "Admin", "Moderator"];
const ADMINS: Caller[] = ["Owner", "Admin"];

const ENDPOINTS: Endpoint[] = [
  { name: "GET /api/v2/admin/accounts", allowed: STAFF, request: async () => ({ method: "GET", path: "/api/v2/admin/accounts" }) },
  { name: "GET /api/v1/admin/accounts", allowed: STAFF, request: async () => ({ method: "GET", path: "/api/v1/admin/accounts" }) },
  { name: "GET /api/v1/admin/accounts/:id", allowed: STAFF, request: async () => ({ method: "GET", path: `/api/v1/admin/accounts/${plainId}` }) },
  {
    name: "POST …/:id/approve",
    allowed: STAFF,
    request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${await fresh({ approved: false })}/approve` }),
  },
  {
    name: "POST …/:id/reject",
    allowed: STAFF,
    request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${await fresh({ approved: false })}/reject` }),
  },
  { name: "POST …/:id/enable", allowed: STAFF, request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${plainId}/enable` }) },
  { name: "POST …/:id/unsilence", allowed: STAFF, request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${plainId}/unsilence` }) },
  { name: "POST …/:id/unsensitive", allowed: STAFF, request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${plainId}/unsensitive` }) },
  { name: "POST …/:id/unsuspend", allowed: STAFF, request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${await suspended()}/unsuspend` }) },
  {
    name: "POST …/:id/action",
    allowed: STAFF,
    request: async () => ({ method: "POST", path: `/api/v1/admin/accounts/${plainId}/action`, body: { type: "none", send_email_notification: false } }),
  },
  { name: "DELETE /api/v1/admin/accounts/:id", allowed: ADMINS, request: async () => ({ method: "DELETE", path: `/api/v1/admin/accounts/${await suspended()}` }) },
  { name: "GET /api/v1/admin/domain_blocks", allowed: ADMINS, request: async () => ({ method: "GET", path: "/api/v1/admin/domain_blocks" }) },
  {
    name: "POST /api/v1/admin/domain_blocks",
    allowed: ADMINS,
    request: async () => ({ method: "POST", path: "/api/v1/admin/domain_blocks", body: { domain: `new${++blockCounter}.example` } }),
  },
  { name: "GET /api/v1/admin/domain_blocks/:id", allowed: ADMINS, request: async () => ({ method: "GET", path: `/api/v1/admin/domain_blocks/${await domainBlock()}` }) },
  {
    name: "PUT /api/v1/admin/domain_blocks/:id",
    allowed: ADMINS,
    request: async () => ({ method: "PUT", path: `/api/v1/admin/domain_blocks/${await domainBlock()}`, body: { severity: "suspend" } }),
  },
  { name: "DELETE /api/v1/admin/domain_blocks/:id", allowed: ADMINS, request: async () => ({ method: "DELETE", path: `/api/v1/admin/domain_blocks/${await domainBlock()}` }) },
  { name: "GET /api/v1/admin/email_domain_blocks", allowed: ADMINS, request: async () => ({ method: "GET", path: "/api/v1/admin/email_domain_blocks" }) },
  {
    name: "POST /api/v1/admin/email_domain_blocks",
    allowed: ADMINS,
    request: async () => ({ method: "POST", path: "/api/v1/admin/email_domain_blocks", body: { domain: `new${++blockCounter}.example` } }),
  },
  {
    name: "GET /api/v1/admin/email_domain_blocks/:id",
    allowed: ADMINS,
    request: async () => ({ method: "GET", path: `/api/v1/admin/email_domain_blocks/${await emailBlock()}` }),
  },
  {
    name: "DELETE /api/v1/admin/email_domain_blocks/:id",
    allowed: ADMINS,
    request: async () => ({ method: "DELETE", path: `/api/v1/admin/email_domain_blocks/${await emailBlock()}` }),
  },
];

const DENIED: Record<Exclude<Caller, "Owner" | "Admin" | "Moderator">, [number, string]> = {
  User: [403, "This action is not allowed"],
  "no admin scopes": [403, "This action is outside the authorized scopes"],
  "app token": [422, "This method requires an authenticated user"],
  "no token": [401, "The access token is invalid"],
};

describe("the permission matrix", () => {
  for (const endpoint of ENDPOINTS) {
    test(endpoint.name, async () => {
      const outcome: Record<string, string> = {};
      const expected: Record<string, string> = {};
      for (const caller of CALLERS) {
        const { method, path, body } = await endpoint.request();
        const answer = await api(t, method, path, caller === "no token" ? undefined : tokens[caller], body);
        outcome[caller] = `${answer.status} ${answer.status < 300 ? "" : answer.body?.error}`;
        if (endpoint.allowed.includes(caller)) expected[caller] = "200 ";
        else if (caller === "Owner" || caller === "Admin" || caller === "Moderator") expected[caller] = "403 This action is not allowed";
        else expected[caller] = DENIED[caller].join(" ");
      }
      expect(outcome).toEqual(expected);
    });
  }
});
