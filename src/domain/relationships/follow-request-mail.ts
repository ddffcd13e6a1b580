// The e-mail side of a new follow request (spec, Events 1: follow requests send e-mail notifications but
// never appear in the notifications API). Run by the mail.follow_request subscriber of follow.requested.
import type { Config } from "../../config.ts";
import type { Store } from "../../store/db.ts";
import { getAccount, getUser } from "../../store/accounts.ts";
import { getFollowRequest } from "../../store/relationships.ts";
import { sendMail } from "../../mail/mailer.ts";
import { followRequestMail } from "../../mail/templates/follow-request.ts";
import type { EventPayloads } from "../events.ts";

/** Mails the target's owner, if the request is still pending and the owner has an e-mail address. */
export async function mailFollowRequest(store: Store, config: Config, event: EventPayloads["follow.requested"]): Promise<void> {
  const request = getFollowRequest(store, event.requesterId, event.targetId);
  if (!request || request.id !== event.requestId) return; // withdrawn, answered or blocked meanwhile
  const requester = getAccount(store, event.requesterId);
  const owner = getUser(store, event.targetId);
  if (!requester || !owner?.email || owner.disabled) return;
  await sendMail(config, followRequestMail(config, requester, owner.email, request.id));
}
