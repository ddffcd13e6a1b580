// Hashtag names as clients send them in paths and parameters: an optional `#`, then a name as statuses write
// them (letters, digits, `_` and `·`, at least one non-digit), matched lower-case like Status.tags.
import { NotFound } from "../../lib/errors.ts";

const NAME_RE = /^[\p{L}\p{N}_·]*[\p{L}_·][\p{L}\p{N}_·]*$/u;
/** As statuses' hashtags (domain/statuses/format.ts): longer names are never tags. */
const MAX_LENGTH = 200;

/** The tag's name, or null when it could not be a hashtag. */
export function tagName(raw: string): string | null {
  const name = raw.trim().replace(/^#/, "");
  return name.length <= MAX_LENGTH && NAME_RE.test(name) ? name.toLowerCase() : null;
}

/** As Mastodon's tag routes: a name that is not a hashtag is 404. */
export function requireTagName(raw: string): string {
  const name = tagName(raw);
  if (!name) throw new NotFound();
  return name;
}
