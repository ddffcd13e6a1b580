// Applying custom filters. A viewer's active filters are compiled once (one regular expression per filter,
// the union of its keywords) and kept per thread while the viewer's version is unchanged (a filter write
// bumps it) and until the first of them expires, so a page of statuses, a timeline scan and a stream push
// each cost one version read for the filters, not one read of them per status. Every rendering then asks the
// compiled set which filters match a status in the read path's context.
//
// Matching follows Mastodon's CustomFilter: case-insensitive; `whole_word` puts word boundaries on the sides
// of the keyword that start or end with a word character, where a word character is any Unicode letter,
// mark, digit or connector (so "caf" is not a whole word of "café"). Keywords and texts are compared in
// Unicode NFC, so a composed "é" matches a decomposed one. Accents are not folded ("cafe" ≠ "café"), as on
// Mastodon. The text is the status's spoiler text, content and media descriptions; for a reblog, those of
// the reblogged status. Status filters match the status or, for a reblog, the status it wraps.
import type { Store } from "../../store/db.ts";
import { filtersOf } from "../../store/filters.ts";
import { getMedia } from "../../store/media.ts";
import { getStatus } from "../../store/statuses.ts";
import { noteExpiry, versionName } from "../../store/versions.ts";
import { VersionedCache } from "../caches/versioned.ts";
import { searchableText } from "./text.ts";
import type { FilterAction, FilterContext, FilterRecord } from "../../model/filters.ts";
import type { StatusRecord } from "../../model/statuses.ts";

/** A filter that matched a status: Mastodon's FilterResult before presentation. */
export interface FilterMatch {
  filter: FilterRecord;
  /** the filter's keywords found in the text, or null */
  keywordMatches: string[] | null;
  /** the status ids (the status, or the status a reblog wraps) the filter names, or null */
  statusMatches: string[] | null;
}

interface CompiledKeyword {
  keyword: string;
  pattern: RegExp;
}

interface CompiledFilter {
  filter: FilterRecord;
  action: FilterAction;
  /** any of the keywords (null: the filter has none) */
  any: RegExp | null;
  keywords: CompiledKeyword[];
  statusIds: ReadonlySet<string>;
}

const WORD = "[\\p{L}\\p{M}\\p{Nd}\\p{Pc}]";
const STARTS_WITH_WORD = new RegExp(`^${WORD}`, "u");
const ENDS_WITH_WORD = new RegExp(`${WORD}$`, "u");

/** Escapes the characters that have a meaning in a pattern (with the `u` flag, only those may be escaped). */
function escapePattern(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/** The pattern of one keyword, as Mastodon's CustomFilterKeyword#to_regex (word boundaries Unicode-aware). */
export function keywordPattern(keyword: string, wholeWord: boolean): string {
  const text = keyword.normalize("NFC");
  const escaped = escapePattern(text);
  if (!wholeWord) return escaped;
  const before = STARTS_WITH_WORD.test(text) ? `(?<!${WORD})` : "";
  const after = ENDS_WITH_WORD.test(text) ? `(?!${WORD})` : "";
  return `${before}${escaped}${after}`;
}

function compileFilter(filter: FilterRecord): CompiledFilter {
  const keywords = filter.keywords.map((k) => ({ keyword: k.keyword, source: keywordPattern(k.keyword, k.wholeWord) }));
  return {
    filter,
    action: filter.action,
    any: keywords.length ? new RegExp(keywords.map((k) => k.source).join("|"), "iu") : null,
    keywords: keywords.map((k) => ({ keyword: k.keyword, pattern: new RegExp(k.source, "iu") })),
    statusIds: new Set(filter.statuses.map((s) => s.statusId)),
  };
}

const CONTEXTS: readonly FilterContext[] = ["home", "notifications", "public", "thread", "account"];

/** A viewer's active filters, compiled, with the ones that apply in each context. */
export class FilterSet {
  private readonly all: CompiledFilter[];
  private readonly byContext = new Map<FilterContext, CompiledFilter[]>();
  /** keywords and status entries in all: the set's weight in the cache */
  readonly size: number;

  constructor(filters: readonly FilterRecord[]) {
    this.all = filters.map(compileFilter);
    for (const context of CONTEXTS) this.byContext.set(context, this.all.filter((f) => f.filter.context.includes(context)));
    this.size = filters.reduce((n, f) => n + f.keywords.length + f.statuses.length, 0);
  }

  get empty(): boolean {
    return this.all.length === 0;
  }

  /** The filters that apply in `context`; null: every active filter (a path with no context of its own). */
  private inContext(context: FilterContext | null): CompiledFilter[] {
    return context ? this.byContext.get(context)! : this.all;
  }

  /** Could a `hide` filter remove anything in `context`? */
  hidesIn(context: FilterContext): boolean {
    return this.inContext(context).some((f) => f.action === "hide");
  }

  /**
   * The filters in `context` that match: `ids` are the status and, for a reblog, the status it wraps;
   * `text` gives the searchable text, read only when some filter has keywords. `hideOnly`: only `hide` filters.
   */
  match(context: FilterContext | null, ids: readonly string[], text: () => string, hideOnly = false): FilterMatch[] {
    const filters = this.inContext(context);
    if (filters.length === 0) return [];
    let searchable: string | undefined;
    const out: FilterMatch[] = [];
    for (const f of filters) {
      if (hideOnly && f.action !== "hide") continue;
      let keywordMatches: string[] | null = null;
      if (f.any) {
        searchable ??= text().normalize("NFC");
        if (f.any.test(searchable)) keywordMatches = f.keywords.filter((k) => k.pattern.test(searchable!)).map((k) => k.keyword);
      }
      const statusMatches = f.statusIds.size ? ids.filter((id) => f.statusIds.has(id)) : [];
      if (!keywordMatches && statusMatches.length === 0) continue;
      out.push({ filter: f.filter, keywordMatches, statusMatches: statusMatches.length ? statusMatches : null });
    }
    return out;
  }
}

/** The filters of `filters` that are active at `now`, compiled. */
export function compileFilters(filters: readonly FilterRecord[], now: number): FilterSet {
  return new FilterSet(filters.filter((f) => f.expiresAt === null || f.expiresAt > now));
}

/** Compiled filter sets by account, weighed by their keywords and status entries. */
const compiled = new VersionedCache<FilterSet>("active filters", 200_000, { weigh: (set) => 1 + set.size });

/**
 * The viewer's active filters, compiled: kept while the viewer's version is unchanged and until the first of
 * them expires. A recording around the lookup (a timeline page being kept) depends on the same version and
 * runs out with the same expiry.
 */
export function activeFilters(store: Store, accountId: string): FilterSet {
  return compiled.get(store, accountId, () => {
    const now = Date.now();
    const filters = filtersOf(store, accountId);
    let next = Infinity;
    for (const f of filters) if (f.expiresAt !== null && f.expiresAt > now && f.expiresAt < next) next = f.expiresAt;
    if (next !== Infinity) noteExpiry(next);
    return { value: compileFilters(filters, now), depends: [versionName.viewer(accountId)] };
  }).value;
}

/** The status a filter looks at: a reblog's original (null when it is gone), else the status itself. */
function properOf(store: Store, status: StatusRecord): StatusRecord | null {
  return status.reblogOfId ? (getStatus(store, status.reblogOfId) ?? null) : status;
}

function idsOf(status: StatusRecord): string[] {
  return status.reblogOfId ? [status.id, status.reblogOfId] : [status.id];
}

/** The filters of `set` in `context` that match a status record (its media read here). */
export function matchStatus(store: Store, set: FilterSet, status: StatusRecord, context: FilterContext | null, hideOnly = false): FilterMatch[] {
  if (set.empty) return [];
  const proper = properOf(store, status);
  if (!proper) return [];
  const text = () => searchableText(proper, proper.mediaIds.map((id) => getMedia(store, id)?.description));
  return set.match(context, idsOf(status), text, hideOnly);
}

/**
 * For the read paths and streams: does one of `viewerId`'s `hide` filters in `context` remove this status?
 * Null when none can (no viewer, or no hide filter in that context), so callers skip the check entirely.
 * Your own statuses are never removed (they still carry `filtered`), as Mastodon's clients do.
 */
export function statusHider(store: Store, viewerId: string | null, context: FilterContext): ((status: StatusRecord) => boolean) | null {
  if (!viewerId) return null;
  const set = activeFilters(store, viewerId);
  if (!set.hidesIn(context)) return null;
  return (status) => {
    const proper = properOf(store, status);
    if (!proper || proper.accountId === viewerId) return false;
    return matchStatus(store, set, status, context, true).length > 0;
  };
}
