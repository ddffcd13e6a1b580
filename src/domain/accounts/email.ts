// The one e-mail address rule, shared by API sign-up and the operator CLI. It is Mastodon's: Devise's
// format check (exactly one "@", no whitespace) plus its EmailAddressValidator (the text must parse as a bare
// RFC 5322 addr-spec that is the whole value: no display name, comment or angle brackets, and no "%", "," or
// '"'). Like Mastodon, single-label domains such as `localhost` are fine (`admin@localhost` is its own dev
// account), the mail library's leniency about dots in the local part is kept, and a bracketed domain literal
// (`user@[192.0.2.1]`) is accepted. Unicode whitespace and control characters are refused too (stricter than
// the mail library, which lets non-ASCII ones through).
import { ACCOUNT_LIMITS } from "../limits.ts";

/** RFC 5322 atext without "%" (Mastodon refuses it) and the dot, plus any non-ASCII character (RFC 6532). */
const DOT_ATOM = /^[.a-z0-9!#$&'*+\-/=?^_`{|}~\u{80}-\u{10ffff}]+$/iu;
/** Printable ASCII except "[", "]", "\", "%", ",", '"' and space, plus non-ASCII: a domain literal's text. */
const DOMAIN_LITERAL = /^\[[!#$&'()*+\-./0-9:;<=>?A-Z^_`a-z{|}~\u{80}-\u{10ffff}]*\]$/u;

/** Whitespace and control characters of any script (the ranges above let non-ASCII ones through). */
const INVISIBLE = /[\p{White_Space}\p{Cc}]/u;

// Dots may lead, trail or repeat in the local part (the mail library Mastodon uses allows it); a domain may
// not end with one. Both need at least one character that is not a dot.
function isLocalPart(text: string): boolean {
  return DOT_ATOM.test(text) && /[^.]/.test(text);
}

function isDomain(text: string): boolean {
  return DOMAIN_LITERAL.test(text) || (DOT_ATOM.test(text) && !text.endsWith("."));
}

/** Devise strips and lower-cases e-mail addresses before validating them. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether a normalised address is one Mastodon would accept. */
export function isValidEmail(email: string): boolean {
  if (email.length > ACCOUNT_LIMITS.maxEmailLength || INVISIBLE.test(email)) return false;
  const parts = email.split("@");
  return parts.length === 2 && isLocalPart(parts[0]!) && isDomain(parts[1]!);
}
