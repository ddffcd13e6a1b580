// A browser on the web pages (/auth/*, /settings/*, /oauth/authorize) over HTTP: a cookie jar, an address
// (X-Forwarded-For: in-process requests count as loopback) and a User-Agent; reads each page's CSRF field.
import type { TestApp } from "./app.ts";
import { CookieJar } from "./oauth.ts";

const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)));

export const csrfOf = (html: string) => unescape(/name="authenticity_token" value="([^"]*)"/.exec(html)?.[1] ?? "");

export class WebBrowser {
  readonly jar = new CookieJar();

  constructor(
    private readonly t: TestApp,
    readonly ip = "192.0.2.10",
    readonly userAgent = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  ) {}

  private headers(): Record<string, string> {
    return { cookie: this.jar.header(), "x-forwarded-for": this.ip, "user-agent": this.userAgent };
  }

  async open(path: string) {
    const res = await this.t.request(path, { headers: this.headers() });
    this.jar.take(res);
    const html = await res.text();
    return { res, html, csrf: csrfOf(html) };
  }

  /** Posts `fields` with `csrf` (the token of a page opened before) and keeps the cookies it sets. */
  async post(action: string, csrf: string, fields: Record<string, string> = {}) {
    const res = await this.t.request(action, { method: "POST", form: { authenticity_token: csrf, ...fields }, headers: this.headers() });
    this.jar.take(res);
    return { res, html: res.status === 303 ? "" : await res.text() };
  }

  /** Opens `page` for its CSRF token, then posts `fields` to `action`. */
  async submit(page: string, action: string, fields: Record<string, string> = {}) {
    return this.post(action, (await this.open(page)).csrf, fields);
  }

  async signIn(username: string, password: string) {
    const res = await this.submit("/auth/sign_in", "/auth/sign_in", { username, password });
    if (res.res.status !== 303) throw new Error(`sign-in failed: ${res.res.status}`);
    return this;
  }

  get session(): string | undefined {
    return this.jar.cookies.get("warren_session") || undefined;
  }
}
