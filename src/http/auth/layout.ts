// The people-facing pages under /auth (docs/web.md): one self-contained layout (no scripts, no external assets,
// a Content-Security-Policy allowing only its own stylesheet), form fields with labels, and every value escaped.
import { createHash } from "node:crypto";
import { escapeHtml } from "../../lib/html.ts";
import type { ErrorDetails } from "../../lib/errors.ts";

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f2f1f6;color:#1d1b26}
main{max-width:28rem;margin:2.5rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:0 0 .75rem}
h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
p{margin:.5rem 0}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
label.check{font-weight:400;display:flex;gap:.5rem;align-items:flex-start}
input[type=text],input[type=email],input[type=password],textarea{width:100%;padding:.6rem;border:1px solid #85819a;border-radius:8px;font:inherit}
button{margin-top:1.25rem;width:100%;padding:.7rem;border:0;border-radius:8px;font:inherit;font-weight:600;cursor:pointer;background:#563acc;color:#fff}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem .8rem;border-radius:8px}
.field-error{color:#8a1c1c;font-size:.9rem;margin:.25rem 0 0}
.notice{background:#e8f3e8;color:#1c5a1c;padding:.6rem .8rem;border-radius:8px}
.muted{color:#5c5870;font-size:.9rem}
nav{margin-top:1.25rem;font-size:.9rem}
a{color:#563acc}
`;

const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

const HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

export const e = escapeHtml;

/** A whole page as a Response: `cookies` become Set-Cookie headers, one each. */
export function htmlPage(siteTitle: string, status: number, title: string, body: string, cookies: readonly string[] = []): Response {
  const headers = new Headers(HEADERS);
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${e(title)} - ${e(siteTitle)}</title><style>${STYLE}</style></head>
<body><main><h1>${e(title)}</h1>
${body}
</main></body></html>`;
  return new Response(html, { status, headers });
}

/** A redirect after a form (303: the browser follows with GET). */
export function seeOther(location: string, cookies: readonly string[] = []): Response {
  const headers = new Headers({ location, "cache-control": "no-store", "referrer-policy": "no-referrer" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return new Response(null, { status: 303, headers });
}

export const paragraph = (text: string, className?: string) => `<p${className ? ` class="${className}"` : ""}${className === "error" ? ' role="alert"' : ""}>${e(text)}</p>`;

export const links = (items: [href: string, text: string][]) => `<nav>${items.map(([href, text]) => `<a href="${e(href)}">${e(text)}</a>`).join(" · ")}</nav>`;

export interface FieldOptions {
  name: string;
  label: string;
  type?: "text" | "email" | "password";
  value?: string;
  autocomplete?: string;
  required?: boolean;
  maxLength?: number;
  hint?: string;
  /** Problems of this field (from a 422), shown under it and tied to it with aria-describedby. */
  errors?: ErrorDetails;
  errorKey?: string;
}

export function field(options: FieldOptions): string {
  // Rails' ids for scoped names: `account_alias[acct]` → `account_alias_acct`.
  const id = options.name.replace(/\]\[|\[/g, "_").replace(/\]/g, "");
  const problems = options.errors?.[options.errorKey ?? options.name] ?? [];
  const errorId = `${id}-error`;
  const attributes = [
    `type="${options.type ?? "text"}"`,
    `id="${e(id)}"`,
    `name="${e(options.name)}"`,
    options.type === "password" ? "" : `value="${e(options.value ?? "")}"`,
    options.autocomplete ? `autocomplete="${e(options.autocomplete)}"` : "",
    options.maxLength ? `maxlength="${options.maxLength}"` : "",
    options.required === false ? "" : "required",
    problems.length ? `aria-invalid="true" aria-describedby="${errorId}"` : "",
    options.type === "text" || !options.type ? 'autocapitalize="none" spellcheck="false"' : "",
  ].filter(Boolean);
  const hint = options.hint ? `<p class="muted">${e(options.hint)}</p>` : "";
  const errorText = problems.length ? `<p class="field-error" id="${errorId}">${e(problems.map((p) => `${options.label} ${p.description}`).join("; "))}</p>` : "";
  return `<label for="${e(id)}">${e(options.label)}</label>\n<input ${attributes.join(" ")}>${errorText}${hint}`;
}

/** A POST form carrying the CSRF token. */
export function form(action: string, csrf: string, inner: string, submit: string): string {
  return `<form method="post" action="${e(action)}"><input type="hidden" name="authenticity_token" value="${e(csrf)}">
${inner}
<button type="submit">${e(submit)}</button></form>`;
}

/** The answer to a form whose CSRF token does not match the browser's cookie. */
export const invalidFormPage = (siteTitle: string) =>
  htmlPage(siteTitle, 403, "Invalid form", paragraph("The form has expired or did not come from this server. Open the page again and retry."));
