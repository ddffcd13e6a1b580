// Server-rendered pages of the authorization flow: the sign-in and consent form, the out-of-band code and
// error pages. Self-contained (no scripts, no external assets); every value is HTML-escaped, and the
// Content-Security-Policy allows nothing but this page's own stylesheet.
import { createHash } from "node:crypto";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f2f1f6;color:#1d1b26}
main{max-width:26rem;margin:2.5rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:0 0 .75rem}
p{margin:.5rem 0}
ul{padding-left:1.2rem;margin:.5rem 0 1rem}
li{margin:.2rem 0}
code{font-family:ui-monospace,monospace;background:#f2f1f6;padding:.1rem .3rem;border-radius:4px;word-break:break-all}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=password]{width:100%;padding:.6rem;border:1px solid #85819a;border-radius:8px;font:inherit}
.buttons{display:flex;gap:.75rem;margin-top:1.25rem}
button{flex:1;padding:.7rem;border:0;border-radius:8px;font:inherit;font-weight:600;cursor:pointer}
.approve{background:#563acc;color:#fff}
.deny{background:#e4e1ee;color:#1d1b26}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem .8rem;border-radius:8px}
.muted{color:#5c5870;font-size:.9rem}
.code{display:block;font-size:1.1rem;padding:.75rem;margin:.75rem 0;text-align:center;user-select:all}
a{color:#563acc}
`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** Headers for every page: no framing (clickjacking), no referrer, nothing but the inline stylesheet. */
export const PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; frame-ancestors 'none'`,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(siteTitle: string, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} - ${escapeHtml(siteTitle)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const SCOPE_TEXT: Record<string, string> = {
  read: "Read all your account's data",
  write: "Modify all your account's data",
  follow: "Modify account relationships",
  push: "Receive your push notifications",
  profile: "Read only your account's profile information",
  "admin:read": "Read all data on the server",
  "admin:write": "Modify all data on the server",
};

function describeScope(scope: string): string {
  const known = SCOPE_TEXT[scope];
  if (known) return known;
  const [kind, ...rest] = scope.split(":");
  const what = rest.at(-1)!.replace(/_/g, " ");
  const verb = scope.startsWith("admin:write") || kind === "write" ? "Modify" : "Read";
  return scope.startsWith("admin:") ? `${verb} ${what} on the server` : `${verb} your ${what}`;
}

export interface AuthorizeView {
  siteTitle: string;
  appName: string;
  website: string | null;
  scopes: readonly string[];
  redirectUri: string;
  outOfBand: boolean;
  /** The authorization request and the CSRF token, resubmitted with the form. */
  hidden: Record<string, string>;
  /** Username of the remembered session; the form then asks for consent only. */
  signedInAs: string | null;
  switchAccountHref: string;
  login: string;
  error: string | null;
}

/** Authorize is the form's first button: pressing Enter in a field submits the first one. */
export function authorizePage(view: AuthorizeView): string {
  const hidden = Object.entries(view.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const website = view.website ? ` (<a href="${escapeHtml(view.website)}" rel="noopener noreferrer nofollow">${escapeHtml(view.website)}</a>)` : "";
  const scopes = view.scopes.map((s) => `<li>${escapeHtml(describeScope(s))} <code>${escapeHtml(s)}</code></li>`).join("");
  const destination = view.outOfBand
    ? "The authorization code will be shown on the next page."
    : `You will then be sent back to <code>${escapeHtml(view.redirectUri)}</code>.`;
  const who = view.signedInAs
    ? `<p>Signed in as <strong>@${escapeHtml(view.signedInAs)}</strong>. <a href="${escapeHtml(view.switchAccountHref)}">Use another account</a></p>`
    : `<label for="username">Username or e-mail address</label>
<input type="text" id="username" name="username" value="${escapeHtml(view.login)}" autocomplete="username" autocapitalize="none" spellcheck="false" required>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>`;
  return layout(
    view.siteTitle,
    "Authorization required",
    `<h1>Authorize ${escapeHtml(view.appName)}</h1>
${view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : ""}
<p><strong>${escapeHtml(view.appName)}</strong>${website} would like to access your account with these permissions:</p>
<ul>${scopes}</ul>
<p class="muted">${destination} Only approve applications you trust.</p>
<form method="post" action="/oauth/authorize">${hidden}${who}
<div class="buttons"><button type="submit" name="decision" value="approve" class="approve">Authorize</button>
<button type="submit" name="decision" value="deny" class="deny" formnovalidate>Deny</button></div>
</form>`,
  );
}

export function codePage(siteTitle: string, appName: string, code: string): string {
  return layout(
    siteTitle,
    "Authorization code",
    `<h1>Authorization code</h1>
<p>Copy this code and paste it into <strong>${escapeHtml(appName)}</strong>:</p>
<code class="code">${escapeHtml(code)}</code>
<p class="muted">The code can be used once, within ten minutes.</p>`,
  );
}

export function messagePage(siteTitle: string, title: string, message: string): string {
  return layout(siteTitle, title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
