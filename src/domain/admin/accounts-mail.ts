// The e-mail side of a staff action (the `mail.account_warning` subscriber of `account.warned`): the owner of
// the account is told what was done and what the staff wrote. Sent even to a suspended or disabled user:
// telling them is the point.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { getAccountWarning } from "../../store/admin.ts";
import { sendMail } from "../../mail/mailer.ts";
import { accountWarningMail } from "../../mail/templates/account-warning.ts";
import type { EventPayloads } from "../events.ts";

export async function mailAccountWarning(store: Store, config: Config, event: EventPayloads["account.warned"]): Promise<void> {
  const warning = getAccountWarning(store, event.accountId, event.warningId);
  const account = getAccount(store, event.accountId);
  const user = getUser(store, event.accountId);
  if (!warning || !account || !user?.email) return;
  await sendMail(config, accountWarningMail(config, account, user.email, warning));
}
