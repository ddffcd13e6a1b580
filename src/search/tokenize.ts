// Text → the words the embedded index stores and looks up (docs/search.md, "Tokenisation"). Documents and
// queries go through the same steps, so whatever a document was indexed under, a query can spell:
//
// 1. URLs are reduced to their host name (without `www`) and path: `https://www.example.com/blog/cats?utm=x`
//    gives `example com blog cats`. Schemes and query strings would otherwise be the commonest words.
// 2. Folding: Unicode compatibility decomposition (NFKD: full-width letters, ligatures, half-width kana),
//    accents of Latin, Greek and Cyrillic letters dropped ("café" = "cafe"), recomposition (NFC: Hangul
//    syllables and voiced kana come back whole), lower case, final sigma as sigma.
// 3. Words are runs of letters, digits and the marks that belong to them (Devanagari vowel signs…); all else
//    (spaces, punctuation, `@`, `#`, `_`) separates them, so `@alice` and `#Cats` are `alice` and `cats`.
// 4. Runs of Han, Hiragana, Katakana and Hangul have no spaces between words: they become overlapping
//    bigrams (東京タワー → 東京 京タ タワ ワー), a run of one character stays itself.
// 5. Other words shorter than `minLength` (2 for statuses, 1 for names) or longer than MAX_WORD_LENGTH
//    characters are dropped.

/** Longer words are not indexed (hashes, base64, runs of letters without spaces): a query word this long finds nothing. */
export const MAX_WORD_LENGTH = 40;
/** Statuses: one-character words (a, I, 5) are neither indexed nor looked up, except CJK characters. */
export const STATUS_MIN_LENGTH = 2;
/** Names (usernames, domains, display names, tags) keep every word. */
export const NAME_MIN_LENGTH = 1;

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'\u00a0]+/gi;
// Combining marks of the Latin, Greek and Cyrillic scripts: the accents folded away. Marks of other scripts
// (kana voicing, Indic vowel signs, Hebrew and Arabic points) carry meaning and stay.
const ACCENTS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]+/gu;

/** Case and accent folding (step 2), also used on tag names and accts. */
export function fold(text: string): string {
  return text.normalize("NFKD").replace(ACCENTS, "").normalize("NFC").toLowerCase().replaceAll("ς", "σ");
}

/** Step 1: a URL as the words of its host and path. */
function urlWords(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname.replace(/^www\./, "");
    let path = parsed.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      // a malformed escape: keep the path as written
    }
    return ` ${host} ${path} `;
  } catch {
    return " ";
  }
}

/** Words of `text` in order, repeats included (step 1 to 5). */
function words(text: string, minLength: number): string[] {
  const out: string[] = [];
  const folded = fold(text.replace(URL_PATTERN, urlWords));
  for (const [run] of folded.matchAll(WORD)) {
    let at = 0;
    for (const match of run.matchAll(CJK)) {
      pushPlain(out, run.slice(at, match.index), minLength);
      pushBigrams(out, match[0]);
      at = match.index! + match[0].length;
    }
    pushPlain(out, run.slice(at), minLength);
  }
  return out;
}

function pushPlain(out: string[], word: string, minLength: number): void {
  if (!word) return;
  const length = codePoints(word);
  if (length >= minLength && length <= MAX_WORD_LENGTH) out.push(word);
}

function pushBigrams(out: string[], run: string): void {
  const chars = [...run];
  if (chars.length === 1) {
    out.push(chars[0]!);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

function codePoints(word: string): number {
  let n = 0;
  for (const _ of word) n++;
  return n;
}

/** The distinct words a document is indexed under. */
export function documentWords(text: string, minLength = STATUS_MIN_LENGTH): string[] {
  return [...new Set(words(text, minLength))];
}

export interface QueryWords {
  /** words that must match whole (repeats removed) */
  whole: string[];
  /** the last word, matched as a prefix; null when the query has no word */
  prefix: string | null;
}

/** A query's words: every one must match, the last one as a prefix of an indexed word. */
export function queryWords(q: string, minLength = STATUS_MIN_LENGTH): QueryWords {
  const all = words(q, minLength);
  const prefix = all.pop() ?? null;
  const whole = [...new Set(all)].filter((word) => word !== prefix);
  return { whole, prefix };
}
