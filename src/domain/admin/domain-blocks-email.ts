// E-mail domain blocks (Mastodon's EmailDomainBlock): sign-ups with an address at a blocked domain, or at any
// of its subdomains, are refused, or held for approval when the block says `allow_with_approval`. Each
// refused (or held) attempt is counted per day: the entity's history. Mastodon also blocks the domains of
// the address's MX records; Warren looks at the address alone (docs/admin.md).
import { createHash } from "node:crypto";
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import {
  countEmailBlockAttempt,
  emailBlockDay,
  emailDomainBlockByName,
  getEmailDomainBlock,
  HISTORY_DAYS,
  pageEmailDomainBlocks,
  putEmailDomainBlock,
  removeEmailDomainBlock,
} from "../../store/admin.ts";
import { domainAndParents, normaliseDomain } from "./domain-blocks.ts";
import type { EmailDomainBlockRecord } from "../../model/moderation.ts";
import type { PageQuery } from "../../model/paging.ts";

export const EMAIL_DOMAIN_BLOCKS_LIMIT = 100;
const DAY_MS = 86_400_000;

export type EmailBlockHistory = { day: number; uses: number; accounts: number }[];

export interface EmailDomainBlockInput {
  domain?: string;
  allowWithApproval?: boolean;
}

export async function createEmailDomainBlock(deps: Pick<Deps, "store">, input: EmailDomainBlockInput): Promise<EmailDomainBlockRecord> {
  const { store } = deps;
  if (!input.domain?.trim()) throw new Unprocessable("Validation failed: Domain can't be blank");
  const domain = normaliseDomain(input.domain);
  if (!domain) throw new Unprocessable("Validation failed: Domain is not a valid domain name");
  return store.write(() => {
    if (emailDomainBlockByName(store, domain)) throw new Unprocessable("Validation failed: Domain has already been taken");
    const now = Date.now();
    const block: EmailDomainBlockRecord = { v: 1, id: newId(now), domain, allowWithApproval: input.allowWithApproval ?? false, createdAt: now };
    putEmailDomainBlock(store, block);
    return block;
  });
}

export function findEmailDomainBlock(store: Store, rawId: string): EmailDomainBlockRecord {
  const id = normaliseId(rawId);
  const block = id ? getEmailDomainBlock(store, id) : undefined;
  if (!block) throw new NotFound();
  return block;
}

export async function deleteEmailDomainBlock(deps: Pick<Deps, "store">, rawId: string): Promise<void> {
  const { store } = deps;
  const id = findEmailDomainBlock(store, rawId).id;
  await store.write(() => {
    const block = getEmailDomainBlock(store, id);
    if (!block) throw new NotFound();
    removeEmailDomainBlock(store, block);
  });
}

export function emailDomainBlocksPage(store: Store, query: PageQuery): EmailDomainBlockRecord[] {
  return pageEmailDomainBlocks(store, query);
}

/** The last week of refused attempts, today first; `day` is the UNIX time (s) of the day's start. */
export function emailBlockHistory(store: Store, block: EmailDomainBlockRecord, now = Date.now()): EmailBlockHistory {
  const today = Math.floor(now / DAY_MS);
  const out: EmailBlockHistory = [];
  for (let day = today; day > today - HISTORY_DAYS; day--) out.push({ day: (day * DAY_MS) / 1000, ...emailBlockDay(store, block.id, day) });
  return out;
}

/** The block that covers an address's domain (its own, else the closest parent's), or undefined. */
export function emailDomainBlockFor(store: Store, email: string): EmailDomainBlockRecord | undefined {
  const at = email.lastIndexOf("@");
  const domain = at < 0 ? null : normaliseDomain(email.slice(at + 1).replace(/^\[|\]$/g, ""));
  if (!domain) return undefined;
  for (const candidate of domainAndParents(domain)) {
    const block = emailDomainBlockByName(store, candidate);
    if (block) return block;
  }
  return undefined;
}

/**
 * Sign-up's question: may this address sign up, and must it wait for approval? A block that applies is
 * counted in its history (in its own write: the sign-up may still fail for other reasons).
 */
export async function emailSignUpVerdict(deps: Pick<Deps, "store">, email: string): Promise<"allowed" | "approval" | "blocked"> {
  const block = emailDomainBlockFor(deps.store, email);
  if (!block) return "allowed";
  const hash = createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
  await deps.store.write(() => {
    if (getEmailDomainBlock(deps.store, block.id)) countEmailBlockAttempt(deps.store, block.id, Math.floor(Date.now() / DAY_MS), hash);
  });
  return block.allowWithApproval ? "approval" : "blocked";
}
