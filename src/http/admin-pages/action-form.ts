// The moderation form of the report and account pages: warn, mark sensitive, (disable,) limit or suspend,
// with the staff's words and whether the user is mailed; sent to performAccountAction, as the admin API's
// POST /api/v1/admin/accounts/:id/action, so its rules (the role over the target's, local-only types) hold.
import { t } from "elysia";
import { MAX_WARNING_TEXT, type AccountActionInput } from "../../domain/admin/accounts-actions.ts";
import { form } from "../auth/layout.ts";
import { CSRF_FIELD, Field } from "../auth/schemas.ts";
import { checkbox, select, textarea } from "./page.ts";
import type { AccountRecord } from "../../model/accounts.ts";

const LOCAL_TYPES = [
  ["none", "Warn (no other effect)"],
  ["sensitive", "Mark the media sensitive"],
  ["disable", "Disable the login"],
  ["silence", "Limit (silence)"],
  ["suspend", "Suspend"],
] as const;

export function actionForm(action: string, csrf: string, target: AccountRecord): string {
  // none and disable are for local accounts only (the domain answers 422 otherwise).
  const types = target.domain === null ? LOCAL_TYPES : LOCAL_TYPES.filter(([type]) => type !== "none" && type !== "disable");
  const mail = target.domain === null ? checkbox("send_email_notification", "Mail the user this warning", true) : "";
  const fields = `${select("type", "Action", types)}\n${textarea("text", "Words to the user (optional)", MAX_WARNING_TEXT)}\n${mail}`;
  return form(action, csrf, fields, "Take action");
}

export const ActionBody = t.Object({
  ...CSRF_FIELD,
  type: Field("none (warn), sensitive, disable, silence or suspend; none and disable for local accounts only"),
  text: Field(`The staff's words to the user (at most ${MAX_WARNING_TEXT} characters)`),
  send_email_notification: Field('"1" when ticked: the user is mailed the warning (local accounts)'),
});

/** The form as the domain's input; an unticked box is absent, so it means no mail. */
export const actionInput = (body: typeof ActionBody.static, reportId?: string): AccountActionInput => ({
  type: body.type,
  text: body.text,
  reportId,
  sendEmailNotification: body.send_email_notification === "1",
});

export const ACTION_DONE: Record<string, string> = {
  none: "The warning has been recorded.",
  sensitive: "The account's media is now marked sensitive.",
  disable: "The account's login is disabled.",
  silence: "The account is now limited.",
  suspend: "The account is suspended.",
};
