// "Reset your password": the one-time link asked for at /auth/password/new (docs/web.md).
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Mail } from "../mailer.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export function passwordResetMail(config: Config, account: AccountRecord, to: string, token: string, key: string): Mail {
  const link = `${config.url}/auth/password/edit?${new URLSearchParams({ reset_password_token: token })}`;
  const handle = `@${account.username}@${config.domain}`;
  return {
    to,
    key,
    subject: `${config.instanceTitle}: reset your password`,
    text: [
      `Hello ${handle},`,
      "",
      `Someone asked to reset the password of your account on ${config.instanceTitle}. To choose a new one, open this link:`,
      "",
      link,
      "",
      "The link works once, within six hours. If you did not ask for it, ignore this message: your password stays as it is.",
      "",
      `-- ${config.instanceTitle} (${config.url})`,
    ].join("\n"),
    html: [
      `<p>Hello ${escapeHtml(handle)},</p>`,
      `<p>Someone asked to reset the password of your account on ${escapeHtml(config.instanceTitle)}.</p>`,
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      "<p>The link works once, within six hours. If you did not ask for it, ignore this message: your password stays as it is.</p>",
      `<p>&mdash; <a href="${escapeHtml(config.url)}">${escapeHtml(config.instanceTitle)}</a></p>`,
    ].join("\n"),
  };
}
