// Password reset (docs/web.md): /auth/password/new asks for the e-mail address and always answers the same;
// the mailed link opens /auth/password/edit?reset_password_token=…, whose form sets the new password, ends
// every session and revokes the user's access tokens.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { checkNewPassword, checkResetToken, requestPasswordReset, resetPassword } from "../../domain/auth/password-reset.ts";
import { ACCOUNT_LIMITS } from "../../domain/limits.ts";
import type { ErrorDetails } from "../../lib/errors.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { browserOf, endSessionCookies, postedBrowser, type Browser } from "./browser.ts";
import { field, form, htmlPage, invalidFormPage, links, paragraph } from "./layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody, onlyStringQuery } from "./schemas.ts";
import { deadLinkPage } from "./token-pages.ts";

const TITLE = "Choose a new password";
const AGAIN: [string, string] = ["/auth/password/new", "Ask for a new link"];

export const passwordRoutes = (deps: Deps) => {
  const site = deps.config.instanceTitle;

  const editPage = (browser: Browser, status: number, token: string, errors: ErrorDetails = {}) => {
    const fields = [
      `<input type="hidden" name="reset_password_token" value="${token.replace(/[^A-Za-z0-9_-]/g, "")}">`,
      field({ name: "password", label: "New password", type: "password", autocomplete: "new-password", errors, hint: `${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters.` }),
      field({ name: "password_confirmation", label: "Confirm new password", type: "password", autocomplete: "new-password", errors }),
    ].join("\n");
    return htmlPage(site, status, TITLE, form("/auth/password/edit", browser.csrf, fields, "Change my password"), browser.cookies);
  };

  return new Elysia({ name: "auth-password-routes" })
    .use(cachePlugin)
    .get("/auth/password/new", async ({ request }) => {
      const browser = await browserOf(deps, request);
      const fields = field({ name: "email", label: "E-mail address", type: "email", autocomplete: "email" });
      return htmlPage(site, 200, "Forgot your password?", `${paragraph("Enter your account's e-mail address: we will send you a link to choose a new password.")}${form("/auth/password/new", browser.csrf, fields, "Send the link")}${links([["/auth/sign_in", "Sign in"]])}`, browser.cookies);
    }, {
      response: { 200: Html("the form asking for the e-mail address") },
      detail: { summary: "Password reset: form asking for the e-mail address (HTML)", tags: ["web"] },
    })
    .post("/auth/password/new", async ({ body, request }) => {
      if (!(await postedBrowser(deps, request, body.authenticity_token))) return invalidFormPage(site);
      await requestPasswordReset(deps, body.email ?? "");
      return htmlPage(site, 200, "Check your e-mail", paragraph("If that address belongs to an account, a link to choose a new password is on its way. It works once, within six hours.", "notice"));
    }, {
      body: t.Object({ ...CSRF_FIELD, email: Field("The account's e-mail address") }),
      transform: onlyStringBody,
      response: { 200: Html("the same answer whether or not the address is known"), 403: Html("CSRF check failed") },
      detail: { summary: "Password reset: send the link (form)", tags: ["web"] },
    })
    .get("/auth/password/edit", async ({ query, request }) => {
      const checked = checkResetToken(deps, query.reset_password_token);
      if (!checked.ok) return deadLinkPage(site, TITLE, checked.reason, AGAIN);
      return editPage(await browserOf(deps, request), 200, query.reset_password_token!);
    }, {
      query: t.Object({ reset_password_token: Field("The token from the password reset mail") }),
      transform: onlyStringQuery,
      response: { 200: Html("the new password form"), 404: Html("unknown token"), 410: Html("expired or already used token") },
      detail: { summary: "Password reset: the mailed link's form (HTML)", tags: ["web"] },
    })
    .post("/auth/password/edit", async ({ body, request }) => {
      const browser = await postedBrowser(deps, request, body.authenticity_token);
      if (!browser) return invalidFormPage(site);
      const token = body.reset_password_token ?? "";
      const input = { password: body.password ?? "", confirmation: body.password_confirmation ?? "" };
      const problems = checkNewPassword(input);
      if (Object.keys(problems.details).length) {
        const checked = checkResetToken(deps, token);
        return checked.ok ? editPage(browser, 422, token, problems.details) : deadLinkPage(site, TITLE, checked.reason, AGAIN);
      }
      const result = await resetPassword(deps, token, input);
      if (!result.ok) return deadLinkPage(site, TITLE, result.reason, AGAIN);
      return htmlPage(site, 200, "Password changed", `${paragraph("Your password has been changed. You have been signed out everywhere: sign in again with the new password.", "notice")}${links([["/auth/sign_in", "Sign in"]])}`, endSessionCookies(deps));
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        reset_password_token: Field("The token from the mailed link"),
        password: Field(`${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters`),
        password_confirmation: Field("The new password again"),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("the password is changed; sessions and access tokens of the user are ended"),
        403: Html("CSRF check failed"),
        404: Html("unknown token"),
        410: Html("expired or already used token"),
        422: Html("the form again, with the problems"),
      },
      detail: { summary: "Password reset: set the new password (form)", tags: ["web"] },
    });
};
