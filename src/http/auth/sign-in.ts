// GET/POST /auth/sign_in and POST /auth/sign_out (docs/web.md). Signing in starts a session (its cookie is
// what /oauth/authorize reuses); signing out ends it on the server. The messages for disabled, unconfirmed and
// pending logins are the API's.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { signInToWeb, type WebSignInResult } from "../../domain/auth/web-sign-in.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { endSession } from "../../domain/auth/web-sessions.ts";
import { beginSession, browserOf, endSessionCookies, postedBrowser, type Browser } from "./browser.ts";
import { e, field, form, htmlPage, invalidFormPage, links, paragraph, seeOther } from "./layout.ts";
import { CSRF_FIELD, Field, Html, Redirect, onlyStringBody } from "./schemas.ts";

type Refusal = Exclude<WebSignInResult, { ok: true }>["reason"];

const REFUSALS: Record<Refusal, [status: number, message: string]> = {
  invalid: [401, "Invalid username, e-mail address or password."],
  disabled: [403, "Your login is currently disabled."],
  unconfirmed: [403, "Your login is missing a confirmed e-mail address."],
  pending: [403, "Your login is currently pending approval."],
};

const FOOTER = links([
  ["/auth/sign_up", "Sign up"],
  ["/auth/password/new", "Forgot your password?"],
  ["/auth/confirmation/new", "Didn't receive a confirmation link?"],
]);

export const signInRoutes = (deps: Deps) => {
  const site = deps.config.instanceTitle;

  const signInForm = (browser: Browser, status: number, login = "", refusal: Refusal | null = null) => {
    const error = refusal ? paragraph(REFUSALS[refusal][1], "error") : "";
    const resend = refusal === "unconfirmed" ? `<p><a href="/auth/confirmation/new">Send the confirmation link again</a></p>` : "";
    const fields = [
      field({ name: "username", label: "Username or e-mail address", value: login.slice(0, 320), autocomplete: "username" }),
      field({ name: "password", label: "Password", type: "password", autocomplete: "current-password" }),
    ].join("\n");
    return htmlPage(site, status, "Sign in", `${error}${resend}${form("/auth/sign_in", browser.csrf, fields, "Sign in")}${FOOTER}`, browser.cookies);
  };

  const signedInPage = (browser: Browser) => {
    const account = browser.session!.account;
    const signOut = form("/auth/sign_out", browser.csrf, "", "Sign out");
    return htmlPage(site, 200, "Signed in", `<p>You are signed in as <strong>@${e(account.username)}</strong>.</p>
<p class="muted">Applications asking for access to your account will only ask you to approve them.</p>${links([["/settings/profile", "Edit profile"]])}${signOut}`, browser.cookies);
  };

  return new Elysia({ name: "auth-sign-in-routes" })
    .use(cachePlugin)
    .get("/auth/sign_in", async ({ request }) => {
      const browser = await browserOf(deps, request);
      return browser.session ? signedInPage(browser) : signInForm(browser, 200);
    }, {
      response: { 200: Html("the sign-in form, or who is signed in with a sign-out button") },
      detail: { summary: "Sign-in page (HTML)", tags: ["web"] },
    })
    .post("/auth/sign_in", async ({ body, request, server }) => {
      const browser = await postedBrowser(deps, request, body.authenticity_token);
      if (!browser) return invalidFormPage(site);
      const result = await signInToWeb(deps.store, body.username ?? "", body.password ?? "");
      if (!result.ok) return signInForm(browser, REFUSALS[result.reason][0], body.username, result.reason);
      return seeOther("/auth/sign_in", [await beginSession(deps, request, server, result.account, browser.session)]);
    }, {
      body: t.Object({ ...CSRF_FIELD, username: Field("Username or e-mail address"), password: Field("Password") }),
      transform: onlyStringBody,
      response: {
        303: Redirect("signed in: a new session, its cookie set"),
        401: Html("the form again: wrong login or password"),
        403: Html("CSRF check failed, or the login is disabled, unconfirmed or pending approval"),
      },
      detail: { summary: "Sign in with a username or e-mail address and password (form)", tags: ["web"] },
    })
    .post("/auth/sign_out", async ({ body, request }) => {
      const browser = await postedBrowser(deps, request, body.authenticity_token);
      if (!browser) return invalidFormPage(site);
      if (browser.session) await endSession(deps, browser.session);
      return seeOther("/auth/sign_in", endSessionCookies(deps));
    }, {
      body: t.Object(CSRF_FIELD),
      transform: onlyStringBody,
      response: { 303: Redirect("signed out: the session ends on the server and its cookie is cleared"), 403: Html("CSRF check failed") },
      detail: { summary: "Sign out (form)", tags: ["web"] },
    });
};
