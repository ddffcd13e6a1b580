// "Confirm your e-mail address": the one-time link of a sign-up that needs confirmation (docs/web.md).
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Mail } from "../mailer.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export function confirmationMail(config: Config, account: AccountRecord, to: string, token: string, key: string): Mail {
  const link = `${config.url}/auth/confirmation?${new URLSearchParams({ confirmation_token: token })}`;
  const handle = `@${account.username}@${config.domain}`;
  return {
    to,
    key,
    subject: `${config.instanceTitle}: confirm your e-mail address`,
    text: [
      `Hello ${handle},`,
      "",
      `To finish signing up on ${config.instanceTitle}, confirm your e-mail address by opening this link:`,
      "",
      link,
      "",
      "The link works once, within two days. If you did not sign up, ignore this message.",
      "",
      `-- ${config.instanceTitle} (${config.url})`,
    ].join("\n"),
    html: [
      `<p>Hello ${escapeHtml(handle)},</p>`,
      `<p>To finish signing up on ${escapeHtml(config.instanceTitle)}, confirm your e-mail address:</p>`,
      `<p><a href="${escapeHtml(link)}">Confirm my e-mail address</a></p>`,
      "<p>The link works once, within two days. If you did not sign up, ignore this message.</p>",
      `<p>&mdash; <a href="${escapeHtml(config.url)}">${escapeHtml(config.instanceTitle)}</a></p>`,
    ].join("\n"),
  };
}
