// A user's domain blocks (GET/POST/DELETE /api/v1/domain_blocks): everything from that domain's accounts is
// hidden from the user at once (viewerHides, so home, public, hashtag and list timelines, threads and
// streams), no notification from them is made (notifications/notify.ts), and they cannot be followed; the
// `domain_blocks.cleanup` subscriber then ends follows both ways, turns down pending requests from the
// domain and removes its notifications, as Mastodon's AfterBlockDomainFromAccountService.
import type { Deps } from "../../deps.ts";
import { BadRequest, Unprocessable } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { getAccount } from "../../store/accounts.ts";
import { clearNotificationsFrom } from "../../store/notifications.ts";
import { followerIdsOf, followingIdsOf, requesterIdsOf } from "../../store/relationships.ts";
import { blocksDomain, getUserDomainBlock, pageUserDomainBlocks, putUserDomainBlock, removeUserDomainBlock } from "../../store/user-domain-blocks.ts";
import { recordEvent, type SubscriberContext } from "../events.ts";
import { reject } from "./follow-requests.ts";
import { removeFollower, unfollow } from "./follow.ts";
import type { AccountRecord } from "../../model/accounts.ts";
import type { PageQuery } from "../../model/paging.ts";

/** A domain as clients send it (`Example.COM`, an IDN, even a URL): its lower-case ASCII host; null if none. */
export function normaliseDomain(raw: string): string | null {
  const text = raw.trim().replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/[/?#].*$/, "");
  if (!text || /[\s@:]/.test(text)) return null;
  try {
    const host = new URL(`http://${text}`).hostname;
    // DNS's limits (Mastodon's DomainValidator): a name of at most 253 characters, labels of at most 63.
    const valid = host.length <= 253 && /^[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*$/.test(host);
    return valid ? host : null;
  } catch {
    return null;
  }
}

function domainParam(raw: string | undefined): string {
  if (!raw?.trim()) throw new BadRequest("param is missing or the value is empty: domain");
  const domain = normaliseDomain(raw);
  if (!domain) throw new Unprocessable("Validation failed: Domain is not a valid domain name");
  return domain;
}

/** POST /api/v1/domain_blocks (`domain`): blocking again changes nothing. */
export async function blockDomain(deps: Deps, viewer: AccountRecord, rawDomain: string | undefined): Promise<void> {
  const domain = domainParam(rawDomain);
  await deps.store.write(() => {
    if (getUserDomainBlock(deps.store, viewer.id, domain)) return;
    const now = Date.now();
    putUserDomainBlock(deps.store, viewer.id, domain, { v: 1, id: newId(now), createdAt: now });
    recordEvent(deps, "domain_block.created", { accountId: viewer.id, domain }, "local", now);
  });
}

/** DELETE /api/v1/domain_blocks (`domain`): `{}` whether or not it was blocked. */
export async function unblockDomain(deps: Deps, viewer: AccountRecord, rawDomain: string | undefined): Promise<void> {
  const domain = domainParam(rawDomain);
  await deps.store.write(() => removeUserDomainBlock(deps.store, viewer.id, domain));
}

/** GET /api/v1/domain_blocks: the domains, newest block first; cursors are the blocks' ids. */
export function domainBlocksPage(deps: Deps, viewerId: string, query: PageQuery): { domains: string[]; cursors: string[] } {
  const rows = pageUserDomainBlocks(deps.store, viewerId, query);
  return { domains: rows.map((row) => row.domain), cursors: rows.map((row) => row.id) };
}

/** The `domain_blocks.cleanup` subscriber. Idempotent (every step only removes); nothing once the block is lifted. */
export async function cleanUpAfterDomainBlock(ctx: Omit<SubscriberContext, "job">, accountId: string, domain: string): Promise<void> {
  const { store } = ctx;
  const owner = getAccount(store, accountId);
  if (!owner || !blocksDomain(store, accountId, domain)) return;
  const ofDomain = (ids: Iterable<string>) => [...ids].map((id) => getAccount(store, id)).filter((a): a is AccountRecord => a?.domain === domain);
  for (const target of ofDomain(followingIdsOf(store, accountId))) await unfollow(ctx, owner, target);
  for (const follower of ofDomain(followerIdsOf(store, accountId))) await removeFollower(ctx, owner, follower);
  for (const requester of ofDomain(requesterIdsOf(store, accountId))) await reject(ctx, owner, requester).catch(() => {});
  await store.write(() => clearNotificationsFrom(store, accountId, (fromId) => getAccount(store, fromId)?.domain === domain));
}
