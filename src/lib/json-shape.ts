// How deep and how big a JSON text is, read in one pass over the raw text before anything parses it.
// JSON.parse of 100,000 nested arrays succeeds, and then whatever walks the result recursively (JSON-LD
// expansion in Fedify, for an inbox) overflows the stack: the shape is checked first, cheaply.

/** Deepest nesting of arrays and objects accepted: the API's parameters (http/plugins/params.ts) and inbox bodies. */
export const MAX_JSON_DEPTH = 16;
/** Most values (array items and object members, at every level) accepted. */
export const MAX_JSON_VALUES = 10_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

/**
 * What is wrong with the shape of `text` as JSON ("is nested too deeply", "has too many values"), or null when it is
 * within the limits. Brackets and commas inside strings do not count; whether the text is JSON at all is the
 * parser's business.
 */
export function jsonShapeProblem(text: string, maxDepth = MAX_JSON_DEPTH, maxValues = MAX_JSON_VALUES): string | null {
  let depth = 0;
  let values = 1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return "is nested too deeply";
      if (++values > maxValues) return "has too many values";
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === COMMA && ++values > maxValues) {
      return "has too many values";
    }
  }
  return null;
}
