// GET/POST /auth/sign_up (docs/web.md): the sign-up form with the server's rules to agree to and, when sign-ups
// need approval, the reason; closed registrations show a notice and refuse the form.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { MAX_REASON_LENGTH } from "../../domain/accounts/register.ts";
import { signUpFacts, signUpFromForm, type SignUpFacts, type SignUpForm } from "../../domain/auth/sign-up.ts";
import { ACCOUNT_LIMITS } from "../../domain/limits.ts";
import { ApiError, type ErrorDetails } from "../../lib/errors.ts";
import { requestAddress } from "../client-address.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { beginSession, browserOf, postedBrowser, type Browser } from "./browser.ts";
import { e, field, form, htmlPage, invalidFormPage, links, paragraph } from "./layout.ts";
import { CSRF_FIELD, Field, Html, onlyStringBody } from "./schemas.ts";

const CLOSED = "Sign-ups are closed on this server.";

export const signUpRoutes = (deps: Deps) => {
  const site = deps.config.instanceTitle;

  const closedPage = (status: number, browser?: Browser) =>
    htmlPage(site, status, "Sign up", `${paragraph(CLOSED, "notice")}${links([["/about", "About this server"], ["/auth/sign_in", "Sign in"]])}`, browser?.cookies);

  const signUpPage = (browser: Browser, facts: SignUpFacts, status: number, values: SignUpForm = {}, errors: ErrorDetails = {}, message = "") => {
    const rules = facts.rules.length
      ? `<h2>Server rules</h2><ol>${facts.rules.map((rule) => `<li><strong>${e(rule.text)}</strong>${rule.hint ? `<br><span class="muted">${e(rule.hint)}</span>` : ""}</li>`).join("")}</ol>`
      : "";
    const agreementError = errors.agreement ? ` aria-invalid="true" aria-describedby="agreement-error"` : "";
    const reason = facts.mode === "approval"
      ? `<label for="reason">Why do you want to join?</label>
<textarea id="reason" name="reason" rows="3" maxlength="${MAX_REASON_LENGTH}">${e(values.reason ?? "")}</textarea>
<p class="muted">The staff review each sign-up before it can be used.</p>`
      : "";
    const fields = [
      field({ name: "username", label: "Username", value: values.username, autocomplete: "username", maxLength: ACCOUNT_LIMITS.maxUsernameLength, errors, hint: "Letters, digits and underscores." }),
      field({ name: "email", label: "E-mail address", type: "email", value: values.email, autocomplete: "email", maxLength: ACCOUNT_LIMITS.maxEmailLength, errors, hint: facts.confirmationRequired ? "We will e-mail you a link to confirm it." : undefined }),
      field({ name: "password", label: "Password", type: "password", autocomplete: "new-password", errors, hint: `${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters.` }),
      field({ name: "password_confirmation", label: "Confirm password", type: "password", autocomplete: "new-password", errors }),
      reason,
      rules,
      `<label class="check"><input type="checkbox" name="agreement" value="1" required${agreementError}> I agree to the server rules and terms</label>`,
      errors.agreement ? `<p class="field-error" id="agreement-error">You must accept the server rules.</p>` : "",
    ].join("\n");
    const error = message ? paragraph(message, "error") : "";
    return htmlPage(site, status, `Sign up on ${site}`, `${error}${form("/auth/sign_up", browser.csrf, fields, "Sign up")}${links([["/auth/sign_in", "Already have an account? Sign in"]])}`, browser.cookies);
  };

  const welcomePage = (browser: Browser, account: { username: string }, confirmed: boolean, approved: boolean, cookies: string[]) => {
    const steps = [
      confirmed ? "" : paragraph("We sent you an e-mail with a link to confirm your address. Open it to finish signing up.", "notice"),
      approved ? "" : paragraph("Your sign-up will be reviewed by the staff. You can use your account once it is approved."),
      confirmed && approved ? paragraph("Your account is ready, and you are signed in.", "notice") : "",
    ].join("");
    const next = !confirmed ? links([["/auth/confirmation/new", "Didn't receive the e-mail?"]]) : approved ? links([["/auth/sign_in", "Continue"]]) : "";
    return htmlPage(site, 200, `Welcome, @${account.username}`, `${steps}${next}`, [...browser.cookies, ...cookies]);
  };

  return new Elysia({ name: "auth-sign-up-routes" })
    .use(cachePlugin)
    .get("/auth/sign_up", async ({ request }) => {
      const facts = signUpFacts(deps);
      const browser = await browserOf(deps, request);
      return facts.mode === "closed" ? closedPage(200, browser) : signUpPage(browser, facts, 200);
    }, {
      response: { 200: Html("the sign-up form, or a notice that sign-ups are closed") },
      detail: { summary: "Sign-up page (HTML)", tags: ["web"] },
    })
    .post("/auth/sign_up", async ({ body, request, server }) => {
      const facts = signUpFacts(deps);
      if (facts.mode === "closed") return closedPage(403);
      const browser = await postedBrowser(deps, request, body.authenticity_token);
      if (!browser) return invalidFormPage(site);
      try {
        const { account, user } = await signUpFromForm(deps, body, requestAddress(deps.config, request, server));
        const confirmed = user.confirmedAt !== null;
        const signedIn = confirmed && user.approved ? [await beginSession(deps, request, server, account, browser.session)] : [];
        return welcomePage(browser, account, confirmed, user.approved, signedIn);
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 422 && error.status !== 403)) throw error;
        if (error.status === 403) return closedPage(403);
        const details = (error.extra.details ?? {}) as ErrorDetails;
        return signUpPage(browser, facts, 422, body, details, error.message);
      }
    }, {
      body: t.Object({
        ...CSRF_FIELD,
        username: Field(`Letters, digits and _; at most ${ACCOUNT_LIMITS.maxUsernameLength} characters`),
        email: Field("E-mail address"),
        password: Field(`${ACCOUNT_LIMITS.minPasswordLength} to ${ACCOUNT_LIMITS.maxPasswordLength} characters`),
        password_confirmation: Field("The password again"),
        agreement: Field('"1": the person accepts the server rules'),
        reason: Field(`Why the person wants to join (approval mode); at most ${MAX_REASON_LENGTH} characters`),
      }),
      transform: onlyStringBody,
      response: {
        200: Html("signed up: what happens next (confirmation mail, approval); signed in when neither is needed"),
        403: Html("sign-ups are closed, or the CSRF check failed"),
        422: Html("the form again, with the problems"),
      },
      detail: { summary: "Sign up (form); the same rules as POST /api/v1/accounts", tags: ["web"] },
    });
};
