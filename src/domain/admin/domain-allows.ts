// Domain allows (Mastodon's DomainAllow): the list of domains an instance in limited federation mode federates
// with. Warren has no limited federation mode (`limited_federation: false` in /api/v2/instance), so, as on a
// Mastodon without LIMITED_FEDERATION_MODE, the list is kept and shown but changes nothing (docs/admin.md).
import type { Deps } from "../../deps.ts";
import { NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import { domainAllowByName, getDomainAllow, pageDomainAllows, putDomainAllow, removeDomainAllow } from "../../store/admin.ts";
import { normaliseDomain } from "./domain-blocks.ts";
import type { DomainAllowRecord } from "../../model/moderation.ts";
import type { PageQuery } from "../../model/paging.ts";

export const DOMAIN_ALLOWS_LIMIT = 100;

/** POST: the new allow, or the one the domain has already (Mastodon answers it, 200). */
export async function createDomainAllow(deps: Pick<Deps, "store">, rawDomain: string | undefined): Promise<DomainAllowRecord> {
  const { store } = deps;
  if (!rawDomain?.trim()) throw new Unprocessable("Validation failed: Domain can't be blank");
  const domain = normaliseDomain(rawDomain);
  if (!domain) throw new Unprocessable("Validation failed: Domain is not a valid domain name");
  return store.write(() => {
    const existing = domainAllowByName(store, domain);
    if (existing) return existing;
    const now = Date.now();
    const allow: DomainAllowRecord = { v: 1, id: newId(now), domain, createdAt: now };
    putDomainAllow(store, allow);
    return allow;
  });
}

export function findDomainAllow(store: Store, rawId: string): DomainAllowRecord {
  const id = normaliseId(rawId);
  const allow = id ? getDomainAllow(store, id) : undefined;
  if (!allow) throw new NotFound();
  return allow;
}

export async function deleteDomainAllow(deps: Pick<Deps, "store">, rawId: string): Promise<void> {
  const { store } = deps;
  const id = findDomainAllow(store, rawId).id;
  await store.write(() => {
    const allow = getDomainAllow(store, id);
    if (!allow) throw new NotFound();
    removeDomainAllow(store, allow);
  });
}

export const domainAllowsPage = (store: Store, query: PageQuery) => pageDomainAllows(store, query);
