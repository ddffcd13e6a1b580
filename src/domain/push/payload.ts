// The push message: Mastodon's Web::NotificationSerializer shape, which Mastodon's clients decode in their
// notification extensions (access_token, preferred_locale, notification_id, notification_type, icon, title,
// body). Rendered here rather than in src/entities because it is no API response: it is encrypted for one
// device and posted to its push service by a job.
import type { Config } from "../../config.ts";
import { mediaUrl } from "../../media/storage.ts";
import { publicId } from "../../lib/ids.ts";
import { htmlToText } from "../filters/text.ts";
import type { AccountRecord, UserRecord } from "../../model/accounts.ts";
import type { NotificationRecord, PushSubscriptionRecord } from "../../model/notifications.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** What Mastodon's push body is cut to (characters, the ellipsis included). */
export const PUSH_BODY_LENGTH = 140;

const DEFAULT_AVATAR_PATH = "/avatars/original/missing.png";

export interface PushMessageInput {
  subscription: PushSubscriptionRecord;
  notification: NotificationRecord;
  recipient: UserRecord;
  from: AccountRecord;
  status: StatusRecord | null;
}

export interface PushMessage {
  access_token: string;
  preferred_locale: string;
  /** A number on Mastodon (its notification ids are a sequence); ours are 18-digit snowflakes (see json) */
  notification_id: string;
  notification_type: string;
  icon: string;
  title: string;
  body: string;
}

function titleOf(type: string, name: string): string {
  switch (type) {
    case "mention": return `${name} mentioned you`;
    case "status": return `${name} just posted`;
    case "reblog": return `${name} boosted your post`;
    case "follow": return `${name} followed you`;
    case "follow_request": return `${name} requested to follow you`;
    case "favourite": return `${name} favourited your post`;
    case "poll": return `A poll by ${name} has ended`;
    case "update": return `${name} edited a post`;
    case "admin.sign_up": return `${name} signed up`;
    case "admin.report": return `${name} filed a report`;
    case "quote": return `${name} quoted your post`;
    case "quoted_update": return `${name} edited a post you quoted`;
    default: return `New notification from ${name}`;
  }
}

/** At most `max` characters (code points), the last one an ellipsis when cut; whitespace runs folded. */
export function truncateText(text: string, max = PUSH_BODY_LENGTH): string {
  const folded = text.replace(/\s+/g, " ").trim();
  const chars = [...folded];
  return chars.length <= max ? folded : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

function iconOf(config: Config, account: AccountRecord): string {
  const url = account.suspended ? null : account.avatarUrl;
  return url ? mediaUrl(config, url)! : `${config.url}${DEFAULT_AVATAR_PATH}`;
}

export function pushMessage(config: Config, input: PushMessageInput): PushMessage {
  const { subscription, notification, recipient, from, status } = input;
  const name = from.displayName.trim() || from.username;
  // The status's warning when it has one (its text may be what the warning is for), else its text; the
  // sender's bio for follows and other notifications without a status.
  const text = status ? status.spoilerText || htmlToText(status.content) : htmlToText(from.note);
  return {
    access_token: subscription.accessToken,
    preferred_locale: recipient.locale || "en",
    notification_id: publicId(notification.id),
    notification_type: notification.type,
    icon: iconOf(config, from),
    title: titleOf(notification.type, name),
    body: truncateText(text),
  };
}

/**
 * The message as JSON, `notification_id` written as a JSON number with all its digits, as Mastodon sends it
 * (clients in Swift and Kotlin decode it into a 64-bit integer and reject a string). A JavaScript reader
 * gets a rounded number from JSON.parse; the digits are exact in the text.
 */
export function pushMessageJson(message: PushMessage): string {
  if (!/^\d{1,19}$/.test(message.notification_id)) throw new Error(`not a numeric notification id: ${message.notification_id}`);
  const members = Object.entries(message).map(([key, value]) => `${JSON.stringify(key)}:${key === "notification_id" ? value : JSON.stringify(value)}`);
  return `{${members.join(",")}}`;
}
