// "Pending follower" mail to the owner of an account when someone asks to follow it (the account is locked,
// or the requester is silenced and so always has to ask).
import type { Config } from "../../config.ts";
import type { Mail } from "../mailer.ts";
import type { AccountRecord } from "../../model/accounts.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `@user@host` for local accounts too: the mail leaves the instance, so the handle must be complete. */
export function fullHandle(config: Config, account: AccountRecord): string {
  return `@${account.username}@${account.domain ?? config.domain}`;
}

export function followRequestMail(config: Config, requester: AccountRecord, to: string, requestId: string): Mail {
  const handle = fullHandle(config, requester);
  const name = requester.displayName.trim() || requester.username;
  const profile = requester.url || requester.uri;
  const who = name === requester.username ? handle : `${name} (${handle})`;
  return {
    to,
    key: `follow-request-${requestId}`,
    subject: `Pending follower: ${who}`,
    text: [
      `${who} has requested to follow you.`,
      "",
      `Profile: ${profile}`,
      "",
      "They will only follow you, and see your followers-only posts, once you accept.",
      "Accept or reject the request from your app's follow requests list.",
      "",
      `-- ${config.instanceTitle} (${config.url})`,
    ].join("\n"),
    html: [
      `<p><a href="${escapeHtml(profile)}">${escapeHtml(who)}</a> has requested to follow you.</p>`,
      "<p>They will only follow you, and see your followers-only posts, once you accept.",
      "Accept or reject the request from your app's follow requests list.</p>",
      `<p>&mdash; <a href="${escapeHtml(config.url)}">${escapeHtml(config.instanceTitle)}</a></p>`,
    ].join("\n"),
  };
}
