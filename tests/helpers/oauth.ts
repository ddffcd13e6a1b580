// Drives the browser half of the authorization code flow over HTTP: open the page, read the CSRF cookie and
// hidden fields out of the HTML, submit the form. A tiny cookie jar stands in for the browser.
import { createHash, randomBytes } from "node:crypto";
import type { TestApp } from "./app.ts";

export function pkcePair() {
  const verifier = randomBytes(48).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export class CookieJar {
  readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));

/** The hidden inputs of the authorization form. */
export function hiddenFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) out[unescape(m[1]!)] = unescape(m[2]!);
  return out;
}

export async function openAuthorizePage(t: TestApp, params: Record<string, string>, jar = new CookieJar()) {
  const res = await t.request(`/oauth/authorize?${new URLSearchParams(params)}`, { headers: { cookie: jar.header() } });
  jar.take(res);
  const html = await res.text();
  return { res, html, jar, fields: hiddenFields(html) };
}

export async function submitAuthorize(t: TestApp, jar: CookieJar, form: Record<string, string>) {
  const res = await t.request("/oauth/authorize", { method: "POST", form, headers: { cookie: jar.header() } });
  jar.take(res);
  return res;
}

/** Query (or fragment) parameters of a redirect's Location. */
export function locationParams(res: Response): URLSearchParams {
  const location = res.headers.get("location") ?? "";
  const cut = location.search(/[?#]/);
  return new URLSearchParams(cut < 0 ? "" : location.slice(cut + 1));
}

/** Signs in and approves; returns the code from the redirect. */
export async function authorize(
  t: TestApp,
  params: Record<string, string>,
  credentials: { username: string; password: string },
  jar = new CookieJar(),
) {
  const page = await openAuthorizePage(t, { response_type: "code", ...params }, jar);
  if (page.res.status !== 200) throw new Error(`authorize page: ${page.res.status} ${page.html}`);
  const res = await submitAuthorize(t, jar, { ...page.fields, ...credentials, decision: "approve" });
  if (res.status !== 302) throw new Error(`authorize form: ${res.status} ${await res.text()}`);
  return { res, code: locationParams(res).get("code")!, jar };
}

/** A response body for assertions. */
export const json = (res: Response): Promise<any> => res.json();
