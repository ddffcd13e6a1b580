// GET /auth/confirmation?confirmation_token=… (the mailed link: confirms the address) and the resend form
// /auth/confirmation/new, which answers the same whether or not the address is known (docs/web.md).
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { confirmEmail, resendConfirmation } from "../../domain/auth/confirmation.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { browserOf, postedBrowser } from "./browser.ts";
import { field, form, htmlPage, invalidFormPage, links, paragraph } from "./layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody, onlyStringQuery } from "./schemas.ts";
import { deadLinkPage } from "./token-pages.ts";

const TITLE = "Confirm your e-mail address";
const RESEND: [string, string] = ["/auth/confirmation/new", "Send a new confirmation link"];

export const confirmationRoutes = (deps: Deps) => {
  const site = deps.config.instanceTitle;
  return new Elysia({ name: "auth-confirmation-routes" })
    .use(cachePlugin)
    .get("/auth/confirmation", async ({ query }) => {
      const result = await confirmEmail(deps, query.confirmation_token);
      if (!result.ok) return deadLinkPage(site, TITLE, result.reason, RESEND);
      const next = result.pendingApproval
        ? paragraph("The staff will now review your sign-up. You can use your account once it is approved.")
        : links([["/auth/sign_in", "Sign in"]]);
      return htmlPage(site, 200, "E-mail address confirmed", `${paragraph(`Thank you, @${result.account.username}: your address is confirmed.`, "notice")}${next}`);
    }, {
      query: t.Object({ confirmation_token: Field("The token from the confirmation mail") }),
      transform: onlyStringQuery,
      response: {
        200: Html("the address is confirmed"),
        404: Html("unknown token"),
        410: Html("expired or already used token"),
      },
      detail: { summary: "Confirm an e-mail address with the mailed link (HTML)", tags: ["web"] },
    })
    .get("/auth/confirmation/new", async ({ request }) => {
      const browser = await browserOf(deps, request);
      const fields = field({ name: "email", label: "E-mail address", type: "email", autocomplete: "email" });
      return htmlPage(site, 200, "Resend the confirmation link", form("/auth/confirmation/new", browser.csrf, fields, "Send"), browser.cookies);
    }, {
      response: { 200: Html("the form asking for the e-mail address") },
      detail: { summary: "Form to have the confirmation mail sent again (HTML)", tags: ["web"] },
    })
    .post("/auth/confirmation/new", async ({ body, request }) => {
      if (!(await postedBrowser(deps, request, body.authenticity_token))) return invalidFormPage(site);
      await resendConfirmation(deps, body.email ?? "");
      return htmlPage(site, 200, "Check your e-mail", paragraph("If that address belongs to an account waiting for confirmation, a new confirmation link is on its way.", "notice"));
    }, {
      body: t.Object({ ...CSRF_FIELD, email: Field("The account's e-mail address") }),
      transform: onlyStringBody,
      response: { 200: Html("the same answer whether or not the address is known"), 403: Html("CSRF check failed") },
      detail: { summary: "Send the confirmation mail again (form)", tags: ["web"] },
    });
};
