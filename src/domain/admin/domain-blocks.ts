// Instance-wide domain blocks (Mastodon's DomainBlock and Admin::DomainBlocksController): create, change,
// lift, list. A block covers its domain and every subdomain; a new block under an existing one is refused
// unless it is stricter. They are stored and shown to staff only for now: federation, when it comes, asks
// `domainBlockFor` about every remote actor and object (docs/admin.md).
import { recordEvent } from "../events.ts";
import { domainToASCII } from "node:url";
import type { Deps } from "../../deps.ts";
import { ApiError, NotFound, Unprocessable } from "../../lib/errors.ts";
import { newId, normaliseId } from "../../lib/ids.ts";
import type { Store } from "../../store/db.ts";
import {
  allDomainBlocks,
  domainBlockByName,
  getDomainBlock,
  pageDomainBlocks,
  putDomainBlock,
  removeDomainBlock,
} from "../../store/admin.ts";
import type { DomainBlockRecord, DomainBlockSeverity } from "../../model/moderation.ts";
import type { PageQuery } from "../../model/paging.ts";

export const DOMAIN_BLOCKS_LIMIT = 100;
export const SEVERITIES: readonly DomainBlockSeverity[] = ["silence", "suspend", "noop"];
/** Mastodon does not limit the comments; this keeps a record reasonable. */
export const MAX_COMMENT_LENGTH = 2000;
const MAX_DOMAIN_LENGTH = 253;
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Lower case, IDNA (punycode), without surrounding space, slashes or a trailing dot; null when not a host name. */
export function normaliseDomain(raw: string): string | null {
  const text = raw.trim().replace(/\//g, "").replace(/\.$/, "").toLowerCase();
  if (!text) return null;
  const ascii = /^[\x21-\x7e]+$/.test(text) ? text : domainToASCII(text);
  if (!ascii || ascii.length > MAX_DOMAIN_LENGTH) return null;
  return ascii.split(".").every((label) => LABEL.test(label)) ? ascii : null;
}

/** The domain and its parents, most specific first ("a.b.example" → a.b.example, b.example, example). */
export function domainAndParents(domain: string): string[] {
  const labels = domain.split(".");
  return labels.map((_, i) => labels.slice(i).join("."));
}

/** The block that applies to a domain: its own or the closest parent's (Mastodon's DomainBlock.rule_for). */
export function domainBlockFor(store: Store, rawDomain: string): DomainBlockRecord | undefined {
  const domain = normaliseDomain(rawDomain);
  if (!domain) return undefined;
  for (const candidate of domainAndParents(domain)) {
    const block = domainBlockByName(store, candidate);
    if (block) return block;
  }
  return undefined;
}

export interface DomainBlockInput {
  domain?: string;
  severity?: string;
  rejectMedia?: boolean;
  rejectReports?: boolean;
  privateComment?: string | null;
  publicComment?: string | null;
  obfuscate?: boolean;
}

/** Mastodon's DomainBlock#stricter_than?: does `block` restrict more than `other` does? */
export function stricterThan(block: Pick<DomainBlockRecord, "severity" | "rejectMedia" | "rejectReports">, other: DomainBlockRecord): boolean {
  if (block.severity === "suspend") return true;
  if (other.severity === "suspend") return false;
  if (other.severity === "silence" && block.severity === "noop") return false;
  return (block.rejectMedia || !other.rejectMedia) && (block.rejectReports || !other.rejectReports);
}

function severityOf(raw: string | undefined, fallback: DomainBlockSeverity): DomainBlockSeverity {
  if (raw === undefined || raw === "") return fallback;
  if (!(SEVERITIES as readonly string[]).includes(raw)) throw new Unprocessable("Validation failed: Severity is not included in the list");
  return raw as DomainBlockSeverity;
}

function comment(raw: string | null | undefined, field: string, fallback: string | null): string | null {
  if (raw === undefined) return fallback;
  if (raw === null) return null;
  if ([...raw].length > MAX_COMMENT_LENGTH) {
    throw new Unprocessable(`Validation failed: ${field} is too long (maximum is ${MAX_COMMENT_LENGTH} characters)`);
  }
  return raw;
}

/** The 422 of a block that an existing one covers as strictly, naming and showing that one. */
export class ExistingDomainBlock extends ApiError {
  constructor(readonly existing: DomainBlockRecord) {
    super(422, `You have already imposed stricter limits on ${existing.domain}.`);
  }
}

export async function createDomainBlock(deps: Pick<Deps, "store" | "jobs">, input: DomainBlockInput): Promise<DomainBlockRecord> {
  const { store } = deps;
  if (!input.domain?.trim()) throw new Unprocessable("Validation failed: Domain can't be blank");
  const domain = normaliseDomain(input.domain);
  if (!domain) throw new Unprocessable("Validation failed: Domain is not a valid domain name");
  const severity = severityOf(input.severity, "silence");
  const privateComment = comment(input.privateComment, "Private comment", null);
  const publicComment = comment(input.publicComment, "Public comment", null);
  return store.write(() => {
    const now = Date.now();
    const block: DomainBlockRecord = {
      v: 1,
      id: newId(now),
      domain,
      severity,
      rejectMedia: input.rejectMedia ?? false,
      rejectReports: input.rejectReports ?? false,
      privateComment,
      publicComment,
      obfuscate: input.obfuscate ?? false,
      createdAt: now,
      updatedAt: now,
    };
    const existing = domainBlockFor(store, domain);
    if (existing && (existing.domain === domain || !stricterThan(block, existing))) throw new ExistingDomainBlock(existing);
    putDomainBlock(store, block);
    recordEvent(deps, "instance_domain_block.changed", { domain });
    return block;
  });
}

export function findDomainBlock(store: Store, rawId: string): DomainBlockRecord {
  const id = normaliseId(rawId);
  const block = id ? getDomainBlock(store, id) : undefined;
  if (!block) throw new NotFound();
  return block;
}

/** PUT: severity, the rejections, the comments and obfuscate, each when given (the domain stays). */
export async function updateDomainBlock(deps: Pick<Deps, "store" | "jobs">, rawId: string, input: DomainBlockInput): Promise<DomainBlockRecord> {
  const { store } = deps;
  const id = findDomainBlock(store, rawId).id;
  return store.write(() => {
    const block = getDomainBlock(store, id);
    if (!block) throw new NotFound();
    const updated: DomainBlockRecord = {
      ...block,
      severity: severityOf(input.severity, block.severity),
      rejectMedia: input.rejectMedia ?? block.rejectMedia,
      rejectReports: input.rejectReports ?? block.rejectReports,
      privateComment: comment(input.privateComment, "Private comment", block.privateComment),
      publicComment: comment(input.publicComment, "Public comment", block.publicComment),
      obfuscate: input.obfuscate ?? block.obfuscate,
      updatedAt: Date.now(),
    };
    putDomainBlock(store, updated);
    recordEvent(deps, "instance_domain_block.changed", { domain: updated.domain });
    return updated;
  });
}

export async function deleteDomainBlock(deps: Pick<Deps, "store" | "jobs">, rawId: string): Promise<DomainBlockRecord> {
  const { store } = deps;
  const id = findDomainBlock(store, rawId).id;
  return store.write(() => {
    const block = getDomainBlock(store, id);
    if (!block) throw new NotFound();
    removeDomainBlock(store, block);
    recordEvent(deps, "instance_domain_block.changed", { domain: block.domain });
    return block;
  });
}

export function domainBlocksPage(store: Store, query: PageQuery): DomainBlockRecord[] {
  return pageDomainBlocks(store, query);
}

/** `warren domains unblock DOMAIN`: the block of exactly this domain, or NotFound. */
export function findDomainBlockByName(store: Store, rawDomain: string): DomainBlockRecord {
  const domain = normaliseDomain(rawDomain);
  const block = domain ? domainBlockByName(store, domain) : undefined;
  if (!block) throw new NotFound(`No domain block for ${rawDomain}`);
  return block;
}

/** Every block, oldest first (`warren domains list`). */
export function listDomainBlocks(store: Store): DomainBlockRecord[] {
  return allDomainBlocks(store);
}
