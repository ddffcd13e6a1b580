// GET /oauth/authorize (sign-in and consent page) and POST /oauth/authorize (the form): the browser half of
// the authorization code flow (API.md §2.4). Pages are HTML; results go back to the client's registered
// redirect URI, or are shown on a page for the out-of-band URI. The page shares the web pages' session and
// CSRF tokens (../auth/browser.ts): signed in, it asks only for consent, and its token is bound to the session.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import {
  AuthorizationPageError,
  AuthorizationRedirectError,
  checkAuthorizationRequest,
  isOutOfBand,
  issueAuthorizationCode,
  redirectLocation,
  type AuthorizationRequest,
} from "../../domain/oauth/authorize.ts";
import { signIn } from "../../domain/oauth/sign-in.ts";
import { beginSession, browserOf, postedBrowser, type Browser } from "../auth/browser.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { authorizePage, codePage, messagePage, PAGE_HEADERS } from "./page.ts";
import { onlyStrings } from "./request.ts";

const Param = (description: string) => t.Optional(t.String({ description }));

const AuthorizeQuery = t.Object({
  response_type: Param('Must be "code"'),
  client_id: Param("The application's client_id"),
  redirect_uri: Param("One of the application's registered redirect URIs"),
  scope: Param("Space or plus separated scopes within the application's; default read"),
  state: Param("Opaque value returned with the result"),
  code_challenge: Param("PKCE challenge: base64url(SHA-256(code_verifier))"),
  code_challenge_method: Param('PKCE method; only "S256"'),
  response_mode: Param('"query" (default) or "fragment"'),
  force_login: Param("true: ask for credentials even when a session is remembered"),
  lang: Param("Ignored"),
});

const AuthorizeForm = t.Object({
  ...AuthorizeQuery.properties,
  authenticity_token: Param("CSRF token from the page"),
  username: Param("Username or e-mail address"),
  password: Param("Password"),
  decision: Param('"approve" or "deny"'),
});

const Html = (description: string) => t.String({ description: `HTML page: ${description}` });
const responses = {
  200: Html("sign-in and consent form, or the out-of-band code"),
  302: t.String({ description: "Redirect to the redirect URI with `code` or `error`, and `state`" }),
  400: Html("the request is invalid and cannot be returned to the client"),
  401: Html("the form again, with a sign-in error"),
  403: Html("CSRF check failed, or the login is disabled"),
};

type Params = Record<string, string>;

const isTrue = (value: string | undefined) => ["true", "1", "t", "on", "yes"].includes((value ?? "").toLowerCase());

const withCookies = (headers: Headers, cookies: readonly string[]) => {
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return headers;
};

const page = (status: number, html: string, cookies: readonly string[] = []) =>
  new Response(html, { status, headers: withCookies(new Headers(PAGE_HEADERS), cookies) });

const redirect = (location: string, cookies: readonly string[] = []) =>
  new Response(null, { status: 302, headers: withCookies(new Headers({ location, "referrer-policy": "no-referrer", "cache-control": "no-store" }), cookies) });

/** Request problems: an error page when the client cannot be trusted, else back to its redirect URI. */
const failure = (title: string, error: unknown) => {
  if (error instanceof AuthorizationPageError) return page(400, messagePage(title, "Authorization failed", error.message));
  if (error instanceof AuthorizationRedirectError) {
    if (isOutOfBand(error.request)) return page(400, messagePage(title, "Authorization failed", `${error.description} (${error.code})`));
    return redirect(redirectLocation(error.request, { error: error.code, error_description: error.description }));
  }
  throw error;
};

/** The request as the form resubmits it (normalised scopes, CSRF token added). */
const requestParams = (request: AuthorizationRequest, params: Params): Params => {
  const out: Params = {
    response_type: "code",
    client_id: request.app.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scopes.join(" "),
  };
  if (request.state !== null) out.state = request.state;
  if (request.codeChallenge) Object.assign(out, { code_challenge: request.codeChallenge, code_challenge_method: "S256" });
  if (params.response_mode) out.response_mode = request.responseMode;
  return out;
};

const consent = (title: string, status: number, request: AuthorizationRequest, params: Params, browser: Browser, signedInAs: string | null, error: string | null = null) => {
  const base = requestParams(request, params);
  const hidden: Params = { ...base, authenticity_token: browser.csrf };
  if (isTrue(params.force_login)) hidden.force_login = "true";
  return page(status, authorizePage({
    siteTitle: title,
    appName: request.app.name,
    website: request.app.website,
    scopes: request.scopes,
    redirectUri: request.redirectUri,
    outOfBand: isOutOfBand(request),
    hidden,
    signedInAs,
    switchAccountHref: `/oauth/authorize?${new URLSearchParams({ ...base, force_login: "true" })}`,
    login: (params.username ?? "").slice(0, 320),
    error,
  }), browser.cookies);
};

export const authorizeRoutes = (deps: Deps) => {
  const title = deps.config.instanceTitle;

  const check = (params: Params) => {
    try {
      return checkAuthorizationRequest(deps.store, params);
    } catch (error) {
      if (error instanceof AuthorizationPageError || error instanceof AuthorizationRedirectError) return error;
      throw error;
    }
  };

  return new Elysia({ name: "oauth-authorize-routes" })
    .use(cachePlugin)
    .get(
      "/oauth/authorize",
      async ({ query, request }) => {
        const params = onlyStrings(query);
        const checked = check(params);
        if (checked instanceof Error) return failure(title, checked);
        const browser = await browserOf(deps, request);
        const session = isTrue(params.force_login) ? null : browser.session;
        return consent(title, 200, checked, params, browser, session?.account.username ?? null);
      },
      {
        query: AuthorizeQuery,
        transform: (ctx) => void (ctx.query = onlyStrings(ctx.query)),
        response: responses,
        detail: { summary: "Sign-in and consent page of the authorization code flow (HTML)", tags: ["oauth"] },
      },
    )
    .post(
      "/oauth/authorize",
      async ({ body, request, server }) => {
        const params = onlyStrings(body);
        const browser = await postedBrowser(deps, request, params.authenticity_token);
        if (!browser) {
          return page(403, messagePage(title, "Invalid form", "The form has expired or did not come from this server. Go back to the application and start again."));
        }
        const checked = check(params);
        if (checked instanceof Error) return failure(title, checked);
        if (params.decision === "deny") {
          const denied = new AuthorizationRedirectError(checked, "access_denied", "The resource owner or authorization server denied the request.");
          if (isOutOfBand(checked)) return page(200, messagePage(title, "Authorization denied", `${checked.app.name} was not given access to your account.`));
          return failure(title, denied);
        }
        if (params.decision !== "approve") return page(400, messagePage(title, "Authorization failed", "Choose Authorize or Deny."));

        let accountId = isTrue(params.force_login) ? null : (browser.session?.account.id ?? null);
        const cookies: string[] = [];
        if (params.username || params.password || !accountId) {
          const result = await signIn(deps.store, params.username ?? "", params.password ?? "");
          if (!result.ok) {
            const message = result.reason === "disabled" ? "Your login is currently disabled." : "Invalid username, e-mail address or password.";
            return consent(title, result.reason === "disabled" ? 403 : 401, checked, params, browser, null, message);
          }
          // Signing in here signs the browser in, in place of whoever was signed in before.
          cookies.push(await beginSession(deps, request, server, result.account, browser.session));
          accountId = result.account.id;
        }
        const code = await issueAuthorizationCode(deps, checked, accountId);
        if (isOutOfBand(checked)) return page(200, codePage(title, checked.app.name, code), cookies);
        return redirect(redirectLocation(checked, { code }), cookies);
      },
      {
        body: AuthorizeForm,
        transform: (ctx) => void (ctx.body = onlyStrings(ctx.body)),
        response: responses,
        detail: { summary: "Submit the authorization form (sign in, then approve or deny)", tags: ["oauth"] },
      },
    );
};
