// The e-mail that tells a user what the staff did to their account (Mastodon's UserMailer#warning): one
// subject per action, the staff's own words when they wrote any, and what the user can still do.
import type { Config } from "../../config.ts";
import type { Mail } from "../mailer.ts";
import { fullHandle } from "./follow-request.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { AccountWarningRecord, WarningAction } from "../../model/moderation.ts";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SUBJECTS: Record<WarningAction, (handle: string) => string> = {
  none: (handle) => `A warning for ${handle}`,
  disable: (handle) => `Your account ${handle} can no longer be used`,
  sensitive: (handle) => `Media posted by ${handle} will be marked as sensitive`,
  silence: (handle) => `Your account ${handle} has been limited`,
  suspend: (handle) => `Your account ${handle} has been suspended`,
};

const EXPLANATIONS: Record<WarningAction, string> = {
  none: "The moderators of this server are sending you a warning about your account.",
  disable: "You can no longer sign in or use your account, but your profile and posts are still there.",
  sensitive: "From now on, the media you post will be hidden behind a content warning for other people.",
  silence: "Your posts are now only seen by people who already follow you, and you will not appear in public listings. Others can still follow you.",
  suspend: "You can no longer use your account, and your profile and posts are no longer shown to anyone. Your data will be removed.",
};

export function accountWarningMail(config: Config, account: AccountRecord, to: string, warning: AccountWarningRecord): Mail {
  const handle = fullHandle(config, account);
  const explanation = EXPLANATIONS[warning.action];
  const paragraphs = warning.text ? warning.text.split(/\n{2,}/) : [];
  return {
    to,
    key: `account-warning-${warning.id}`,
    subject: SUBJECTS[warning.action](handle),
    text: [
      explanation,
      ...(paragraphs.length ? ["", "A note from the moderators:", "", ...paragraphs] : []),
      "",
      `-- ${config.instanceTitle} (${config.url})`,
    ].join("\n"),
    html: [
      `<p>${escapeHtml(explanation)}</p>`,
      ...(paragraphs.length ? ["<p>A note from the moderators:</p>", ...paragraphs.map((p) => `<blockquote>${escapeHtml(p).replace(/\n/g, "<br>")}</blockquote>`)] : []),
      `<p>&mdash; <a href="${escapeHtml(config.url)}">${escapeHtml(config.instanceTitle)}</a></p>`,
    ].join("\n"),
  };
}
