// GET /settings/sessions, POST /settings/sessions/revoke (docs/web.md): the browsers signed in to the account
// (as Mastodon's "Authorized sessions": browser and system from the User-Agent, address, last use), each with
// a button ending it. Ending this browser's own session signs it out.
import { Elysia, t } from "elysia";
import type { Deps } from "../../deps.ts";
import { activeSessions, endSessionById } from "../../domain/auth/web-sessions.ts";
import { cachePlugin } from "../plugins/cache.ts";
import { endSessionCookies } from "./browser.ts";
import { e, form, htmlPage, links, paragraph } from "./layout.ts";
import { CSRF_FIELD, Field, Html, SETTINGS_FORM_REFUSALS, SETTINGS_PAGE_REFUSALS, onlyStringBody } from "./schemas.ts";
import { openSettings, postSettings, settingsPage, type SignedIn } from "./settings-page.ts";
import type { WebSessionRecord } from "../../model/auth.ts";

const PATH = "/settings/sessions";
const TITLE = "Sessions";

// First match wins: Edge and Opera also name Chrome, Chrome also names Safari.
const BROWSERS: [RegExp, string][] = [[/Edg(e|A|iOS)?\//, "Edge"], [/OPR\/|Opera/, "Opera"], [/Firefox\/|FxiOS/, "Firefox"], [/Chrome\/|CriOS/, "Chrome"], [/Safari\//, "Safari"]];
const SYSTEMS: [RegExp, string][] = [[/Android/, "Android"], [/iPhone|iPad|iPod/, "iOS"], [/Windows/, "Windows"], [/Mac OS X|Macintosh/, "macOS"], [/CrOS/, "ChromeOS"], [/Linux/, "Linux"]];

/** "Firefox on Linux", as Mastodon's session list names a browser. */
export function describeBrowser(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? "Unknown browser";
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  return system ? `${browser} on ${system}` : browser;
}

const when = (ms: number) => `${new Date(ms).toISOString().replace("T", " ").slice(0, 16)} UTC`;

export const settingsSessionsRoutes = (deps: Deps) => {
  const page = (signedIn: SignedIn, status: number, notice = "") => {
    const current = signedIn.session.record.id;
    const item = (session: WebSessionRecord) => {
      const self = session.id === current ? " <strong>(this browser)</strong>" : "";
      const facts = `Signed in ${when(session.createdAt)} from ${e(session.ip ?? "an unknown address")}; last used ${when(session.lastUsedAt)}.`;
      const end = form(`${PATH}/revoke`, signedIn.browser.csrf, `<input type="hidden" name="session_id" value="${e(session.id)}">`, session.id === current ? "Sign out" : "End this session");
      return `<li><h2>${e(describeBrowser(session.userAgent))}${self}</h2><p class="muted" title="${e(session.userAgent)}">${facts}</p>${end}</li>`;
    };
    const intro = "<p>The browsers signed in to your account. A session ends when you sign out, after two weeks unused, or a year after signing in.</p>";
    return settingsPage(deps, signedIn, status, PATH, TITLE, `${intro}<ul>${activeSessions(deps.store, signedIn.session.account.id).map(item).join("\n")}</ul>`, notice);
  };

  return new Elysia({ name: "auth-settings-sessions-routes" })
    .use(cachePlugin)
    .get(PATH, async ({ request }) => {
      const signedIn = await openSettings(deps, request, TITLE);
      return signedIn instanceof Response ? signedIn : page(signedIn, 200);
    }, {
      response: { 200: Html("the account's live browser sessions"), ...SETTINGS_PAGE_REFUSALS },
      detail: { summary: "Browser sessions page (HTML)", tags: ["web"] },
    })
    .post(`${PATH}/revoke`, async ({ body, request }) => {
      const signedIn = await postSettings(deps, request, body.authenticity_token, TITLE);
      if (signedIn instanceof Response) return signedIn;
      const id = body.session_id ?? "";
      const ended = await endSessionById(deps, signedIn.session.account.id, id);
      if (ended && id === signedIn.session.record.id) {
        const body = `${paragraph("You have been signed out.", "notice")}${links([["/auth/sign_in", "Sign in"]])}`;
        return htmlPage(deps.config.instanceTitle, 200, TITLE, body, [...signedIn.browser.cookies, ...endSessionCookies(deps)]);
      }
      return page(signedIn, 200, ended ? "The session has ended." : "That session had already ended.");
    }, {
      body: t.Object({ ...CSRF_FIELD, session_id: Field("Id of the session to end, from the list") }),
      transform: onlyStringBody,
      response: { 200: Html("the list again with a notice, or signed out when it was this browser's session"), ...SETTINGS_FORM_REFUSALS },
      detail: { summary: "End a browser session of the account (form)", tags: ["web"] },
    });
};
