// What Warren keeps in Meilisearch (meilisearch.ts): the three indexes' documents, their settings, and the
// filter expressions on them. An 18-digit id does not fit a JSON number exactly, so a status also carries it
// as two numbers (its millisecond and its low 16 bits) to sort and page on; a tag's document id is the SHA-256
// of its name (tag names hold letters that ids may not).
import { createHash } from "node:crypto";
import type { Settings } from "meilisearch";
import type { AccountDocument, StatusDocument, TagDocument } from "./engine.ts";

export interface MeiliAccount {
  id: string;
  acct: string;
  username: string;
  domain: string;
  displayName: string;
  followersCount: number;
  lastStatusAt: number;
  discoverable: boolean;
}

export interface MeiliStatus {
  id: string;
  accountId: string;
  text: string;
  visibility: StatusDocument["visibility"];
  createdAt: number;
  /** the id's millisecond and low 16 bits: sortable and comparable as JSON numbers */
  idMs: number;
  idLow: number;
}

export interface MeiliTag {
  id: string;
  name: string;
  uses: number;
}

const NO_TYPOS = { enabled: false };

export const ACCOUNT_SETTINGS: Settings = {
  searchableAttributes: ["username", "displayName", "domain"],
  filterableAttributes: ["id", "acct", "discoverable"],
  sortableAttributes: ["followersCount", "lastStatusAt"],
  // "sort" before "attribute": a match in a display name ranks with one in a username, by followers.
  rankingRules: ["words", "sort", "typo", "proximity", "attribute", "exactness"],
  typoTolerance: NO_TYPOS,
};

export const STATUS_SETTINGS: Settings = {
  searchableAttributes: ["text"],
  filterableAttributes: ["accountId", "visibility", "createdAt", "idMs", "idLow"],
  sortableAttributes: ["idMs", "idLow", "createdAt"],
  rankingRules: ["words", "sort", "typo", "proximity", "attribute", "exactness"],
  typoTolerance: NO_TYPOS,
};

export const TAG_SETTINGS: Settings = {
  searchableAttributes: ["name"],
  filterableAttributes: ["name"],
  sortableAttributes: ["uses"],
  rankingRules: ["words", "sort", "typo", "proximity", "attribute", "exactness"],
  typoTolerance: NO_TYPOS,
};

/** A string in a filter expression: double quotes, with quotes and backslashes escaped. */
export const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

export function idParts(id: string): { ms: number; low: number } {
  const value = BigInt(id);
  return { ms: Number(value >> 16n), low: Number(value & 0xffffn) };
}

/** `id < bound` (below) or `id > bound`, as a filter on the two numbers an id is kept as. */
export function idFilter(bound: string, below: boolean): string {
  const { ms, low } = idParts(bound);
  const op = below ? "<" : ">";
  return `(idMs ${op} ${ms} OR (idMs = ${ms} AND idLow ${op} ${low}))`;
}

export const tagId = (name: string) => createHash("sha256").update(name).digest("hex");

export function accountDocument(document: AccountDocument): MeiliAccount {
  return {
    id: document.id,
    acct: (document.domain ? `${document.username}@${document.domain}` : document.username).toLowerCase(),
    username: document.username,
    domain: document.domain ?? "",
    displayName: document.displayName,
    followersCount: document.followersCount,
    lastStatusAt: document.lastStatusAt ?? 0,
    discoverable: document.discoverable,
  };
}

export function statusDocument(document: StatusDocument): MeiliStatus {
  const { ms, low } = idParts(document.id);
  return { id: document.id, accountId: document.accountId, text: document.text, visibility: document.visibility, createdAt: document.createdAt, idMs: ms, idLow: low };
}

export const tagDocument = (tag: TagDocument): MeiliTag => ({ id: tagId(tag.name), name: tag.name, uses: tag.uses });
