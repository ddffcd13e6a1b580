// GET /settings/applications, POST /settings/applications/revoke (docs/web.md): the apps authorised to use
// the account, each with a button revoking its access.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { authorisedApps, revokeAuthorisedApp } from "../../domain/auth/applications.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { e, form } from "./layout.ts";
import { CSRF_FIELD, Field, Html, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";

const PATH = "/settings/applications";
const TITLE = "Authorised applications";

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const settingsApplicationsRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, notice = "") => {
    const apps = authorisedApps(deps, signedIn.session.account.id);
    const items = apps.map(({ app, scopes, since }) => {
      const name = app.website && /^https?:\/\//i.test(app.website) ? `<a href="${e(app.website)}" rel="noopener noreferrer nofollow">${e(app.name)}</a>` : e(app.name);
      const revoke = form(`${PATH}/revoke`, signedIn.browser.csrf, `<input type="hidden" name="app_id" value="${e(app.id)}">`, `Revoke ${app.name}`);
      return `<li><h2>${name}</h2><p class="muted">Authorised since ${day(since)}; may ${e(scopes.join(", "))}.</p>${revoke}</li>`;
    });
    const body = items.length ? `<ul>${items.join("\n")}</ul>` : "<p>No application is authorised to use your account.</p>";
    return settingsPage(deps, signedIn, status, PATH, TITLE, body, notice);
  };

  return new Elysia({ name: "auth-settings-applications-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the authorised applications"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Authorised applications page (HTML)", tags: ["web"] },
    })
    .post(`${PATH}/revoke`, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      const revoked = await revokeAuthorisedApp(deps, signedIn.session, body.app_id ?? "");
      return page(signedIn, 200, revoked ? "The application's access has been revoked." : "That application had no access to revoke.");
    }, {
      body: t.Object({ ...CSRF_FIELD, app_id: Field("Id of the application whose tokens for this user to revoke") }),
      transform: onlyStringBody,
      response: {
        200: Html("the list again, with a notice"),
        ...SETTINGS_FORM_REFUSALS,
      },
      detail: { summary: "Revoke an application's access to the account (form)", tags: ["web"] },
    });
};
