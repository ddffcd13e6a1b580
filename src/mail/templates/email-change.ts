// "Confirm your new e-mail address": the one-time link of a change asked for in /settings/email (docs/web.md).
import type { Config } from "../../config.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Mail } from "../mailer.ts";
import type { AccountRecord } from "../../model/accounts.ts";

export function emailChangeMail(config: Config, account: AccountRecord, to: string, token: string, key: string): Mail {
  const link = `${config.url}/auth/confirmation?${new URLSearchParams({ confirmation_token: token })}`;
  const handle = `@${account.username}@${config.domain}`;
  const ignore = "The link works once, within two days. Until it is used the account keeps its current address. If you did not ask for this, ignore this message.";
  return {
    to,
    key,
    subject: `${config.instanceTitle}: confirm your new e-mail address`,
    text: [`Hello ${handle},`, "", `To use this address for your account on ${config.instanceTitle}, open this link:`, "", link, "", ignore, "", `-- ${config.instanceTitle} (${config.url})`].join("\n"),
    html: [
      `<p>Hello ${escapeHtml(handle)},</p>`,
      `<p>To use this address for your account on ${escapeHtml(config.instanceTitle)}, confirm it:</p>`,
      `<p><a href="${escapeHtml(link)}">Confirm my new e-mail address</a></p>`,
      `<p>${escapeHtml(ignore)}</p>`,
      `<p>&mdash; <a href="${escapeHtml(config.url)}">${escapeHtml(config.instanceTitle)}</a></p>`,
    ].join("\n"),
  };
}
