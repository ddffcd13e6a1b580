// PATCH /api/v1/accounts/update_credentials: the signed-in user edits their profile and posting defaults.
// Bios and field values are stored as typed (plain text) and rendered to HTML (bio at write time, field
// values when presented). Avatar and header files are checked and saved first (profile-images.ts); the
// record points to them in the same transaction as the other changes.
import type { Deps } from "../../deps.ts";
import { NotFound } from "../../lib/errors.ts";
import { countableLength } from "../../lib/html.ts";
import { bioHtml } from "./field-html.ts";
import { getAccount, getUser, putAccount, putUser } from "../../store/accounts.ts";
import type { UserViewer } from "../auth/viewer.ts";
import { ACCOUNT_LIMITS, STATUS_LIMITS } from "../limits.ts";
import { acceptPendingFollowRequests } from "../relationships/follow-requests.ts";
import { applyProfileImages, discardProfileImages, prepareProfileImage, saveProfileImages } from "./profile-images.ts";
import { Problems, charLength, tooLong } from "./validation.ts";
import { recordEvent } from "../events.ts";
import { normaliseDomain } from "../admin/domain-blocks.ts";
import { QUOTE_POLICIES } from "../quotes/policy.ts";
import type { AccountRecord, ProfileField, UserRecord } from "../../model/accounts.ts";
import type { QuotePolicy } from "../../model/statuses.ts";

export interface ProfileUpdate {
  displayName?: string;
  note?: string;
  locked?: boolean;
  bot?: boolean;
  discoverable?: boolean;
  indexable?: boolean;
  hideCollections?: boolean;
  /**
   * Replaces every field: an array or an index-keyed object (`{"0": {name, value}}`) of {name, value};
   * "" clears them. Entries with neither name nor value are dropped.
   */
  fields?: unknown;
  /** Uploaded image files (anything else is a 422; "" means no change). */
  avatar?: unknown;
  header?: unknown;
  avatarDescription?: string;
  headerDescription?: string;
  privacy?: string;
  /** Who may quote new posts by default: public, followers or nobody. */
  quotePolicy?: string;
  sensitive?: boolean;
  /** ISO 639 code, or "" for none. */
  language?: string;
  /** Host names; a string holds one per line (Mastodon's settings form). */
  attributionDomains?: string[] | string;
}

const PRIVACY = ["public", "unlisted", "private"] as const;
const MAX_ATTRIBUTION_DOMAINS = 10;
const LANGUAGE_PATTERN = /^[a-z]{2,3}$/i;

function checkLength(problems: Problems, field: string, value: string | undefined, max: number): void {
  if (value !== undefined && charLength(value) > max) problems.add(field, "ERR_TOO_LONG", tooLong(max));
}

type FieldInput = { name?: unknown; value?: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The submitted fields in order, or null when their shape is wrong. */
function fieldInputs(raw: unknown): FieldInput[] | null {
  const list = Array.isArray(raw) ? raw : isObject(raw) ? Object.keys(raw).sort((a, b) => Number(a) - Number(b)).map((k) => raw[k]) : null;
  const valid = list?.every((f) => isObject(f) && ["name", "value"].every((k) => f[k] === undefined || typeof f[k] === "string"));
  return valid ? (list as FieldInput[]) : null;
}

function cleanFields(update: ProfileUpdate, problems: Problems): { name: string; value: string }[] | undefined {
  // A plain value where Rails expects a hash is not a field list; Rails drops it, and masto.js sends
  // `fields_attributes=undefined` in every multipart update.
  if (update.fields === undefined || typeof update.fields === "string" || typeof update.fields === "boolean") return undefined;
  const inputs = fieldInputs(update.fields);
  if (!inputs) {
    problems.add("fields", "ERR_INVALID", "is invalid");
    return undefined;
  }
  const fields = inputs
    .map((f) => ({ name: String(f.name ?? "").trim(), value: String(f.value ?? "").trim() }))
    .filter((f) => f.name || f.value);
  if (fields.length > ACCOUNT_LIMITS.maxProfileFields) {
    problems.add("fields", "ERR_TOO_LONG", `is too long (maximum is ${ACCOUNT_LIMITS.maxProfileFields} fields)`);
  }
  if (fields.some((f) => !f.name)) problems.add("fields", "ERR_INVALID", "have values missing labels");
  if (fields.some((f) => charLength(f.name) > ACCOUNT_LIMITS.profileFieldNameLimit)) {
    problems.add("fields", "ERR_TOO_LONG", `name is too long (maximum is ${ACCOUNT_LIMITS.profileFieldNameLimit} characters)`);
  }
  if (fields.some((f) => charLength(f.value) > ACCOUNT_LIMITS.profileFieldValueLimit)) {
    problems.add("fields", "ERR_TOO_LONG", `value is too long (maximum is ${ACCOUNT_LIMITS.profileFieldValueLimit} characters)`);
  }
  return fields;
}

/** The attribution domains, normalised and without repeats; a problem for each one that is not a host name. */
function cleanAttributionDomains(raw: ProfileUpdate["attributionDomains"], problems: Problems): string[] | undefined {
  if (raw === undefined) return undefined;
  const entries = (typeof raw === "string" ? raw.split(/[\r\n]+/) : raw).map((d) => d.trim()).filter(Boolean);
  const domains = new Set<string>();
  for (const entry of entries) {
    const domain = normaliseDomain(entry);
    if (domain && domain.includes(".")) domains.add(domain);
    else problems.add("attribution_domains", "ERR_INVALID", `contains an invalid domain: ${entry.slice(0, 100)}`);
  }
  if (domains.size > MAX_ATTRIBUTION_DOMAINS) {
    problems.add("attribution_domains", "ERR_TOO_LONG", `is too long (maximum is ${MAX_ATTRIBUTION_DOMAINS} domains)`);
  }
  return [...domains];
}

/** Validates the whole update first (every problem in one 422), then writes it in one transaction. Also the
 * settings page's (/settings/profile), whose viewer is the signed-in browser's account. */
export async function updateCredentials(deps: Deps, viewer: Pick<UserViewer, "account">, update: ProfileUpdate): Promise<{ account: AccountRecord; user: UserRecord }> {
  const problems = new Problems();
  const displayName = update.displayName?.trim();
  // Multipart bodies carry CRLF line ends; the bio is stored with plain newlines.
  const note = update.note?.replace(/\r\n?/g, "\n").trim();
  checkLength(problems, "display_name", displayName, ACCOUNT_LIMITS.maxDisplayNameLength);
  if (note !== undefined && countableLength(note, STATUS_LIMITS.charactersReservedPerUrl) > ACCOUNT_LIMITS.maxNoteLength) {
    problems.add("note", "ERR_TOO_LONG", tooLong(ACCOUNT_LIMITS.maxNoteLength));
  }
  checkLength(problems, "avatar_description", update.avatarDescription, ACCOUNT_LIMITS.maxAvatarDescriptionLength);
  checkLength(problems, "header_description", update.headerDescription, ACCOUNT_LIMITS.maxHeaderDescriptionLength);
  const fields = cleanFields(update, problems);
  const attributionDomains = cleanAttributionDomains(update.attributionDomains, problems);
  if (update.privacy !== undefined && !(PRIVACY as readonly string[]).includes(update.privacy)) {
    problems.add("source.privacy", "ERR_INCLUSION", "is not included in the list");
  }
  if (update.quotePolicy !== undefined && !(QUOTE_POLICIES as readonly string[]).includes(update.quotePolicy)) {
    problems.add("source.quote_policy", "ERR_INCLUSION", "is not included in the list");
  }
  const language = update.language?.trim();
  if (language && !LANGUAGE_PATTERN.test(language)) problems.add("source.language", "ERR_INCLUSION", "is not included in the list");
  const avatar = await prepareProfileImage("avatar", update.avatar, problems);
  const header = await prepareProfileImage("header", update.header, problems);
  problems.throwIfAny();

  const saved = await saveProfileImages(deps, viewer.account.id, { avatar, header });
  let replaced: (string | null)[] = [];
  const result = await deps.store.write(() => {
    // Applied to the records as they are now, so concurrent edits of different fields both survive.
    const account = getAccount(deps.store, viewer.account.id);
    const user = getUser(deps.store, viewer.account.id);
    if (!account || !user) throw new NotFound();
    const next: AccountRecord = { ...account };
    if (displayName !== undefined) next.displayName = displayName;
    if (note !== undefined) {
      next.noteSource = note;
      next.note = bioHtml(deps.store, deps.config, note);
    }
    if (update.locked !== undefined) next.locked = update.locked;
    if (update.bot !== undefined) next.bot = update.bot;
    if (update.discoverable !== undefined) next.discoverable = update.discoverable;
    if (update.indexable !== undefined) next.indexable = update.indexable;
    if (update.hideCollections !== undefined) next.hideCollections = update.hideCollections;
    if (update.avatarDescription !== undefined) next.avatarDescription = update.avatarDescription;
    if (update.headerDescription !== undefined) next.headerDescription = update.headerDescription;
    if (fields) next.fields = fields.map((f) => withVerification(account.fields, f));
    if (attributionDomains) next.attributionDomains = attributionDomains;
    replaced = applyProfileImages(account, next, saved);
    const nextUser: UserRecord = { ...user };
    if (update.privacy !== undefined) nextUser.privacy = update.privacy as UserRecord["privacy"];
    if (update.quotePolicy !== undefined) nextUser.quotePolicy = update.quotePolicy as QuotePolicy;
    if (update.sensitive !== undefined) nextUser.sensitive = update.sensitive;
    if (language !== undefined) nextUser.language = language ? language.toLowerCase() : null;
    putAccount(deps.store, next);
    putUser(deps.store, nextUser);
    // Unlocking accepts the pending follow requests, which changes the counters just written.
    if (account.locked && !next.locked) acceptPendingFollowRequests(deps, next.id);
    recordEvent(deps, "account.updated", { accountId: next.id });
    return { account: getAccount(deps.store, next.id) ?? next, user: nextUser };
  }).catch(async (error: unknown) => {
    await discardProfileImages(deps, Object.values(saved));
    throw error;
  });
  await discardProfileImages(deps, replaced);
  return result;
}

/** A field keeps its rel=me verification while its value is unchanged (as Mastodon's fields_attributes=). */
function withVerification(previous: readonly ProfileField[], field: { name: string; value: string }): ProfileField {
  const same = previous.find((p) => p.value === field.value);
  return { name: field.name, value: field.value, verifiedAt: same?.verifiedAt ?? null };
}
