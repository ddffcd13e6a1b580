// The functions of a TypeScript source and their lengths, by a brace-matching scan (scripts/check-arrows.ts
// fails on one over MAX_FUNCTION_LINES). Comments, strings, template literals and regular expressions are
// blanked first, so that braces inside them do not count; then every function head (`function`, a method, an
// arrow with a block body) is matched to the brace that closes its body. A heuristic, not a parser: it is
// right on this code base, whose style it assumes (one statement per line, bodies opened at the end of a line).

export const MAX_FUNCTION_LINES = 80;

export interface FunctionSpan {
  name: string;
  /** line of the head, 1-based */
  line: number;
  /** lines from the head to the closing brace, both counted */
  length: number;
}

const KEYWORDS = new Set(["if", "for", "while", "switch", "catch", "with", "return", "function", "await", "typeof", "new", "else", "do"]);
const REGEX_BEFORE = /[(,=:[!&|?{};+\-*%<>~^]$|\b(?:return|typeof|case|of|in|delete|void|throw|yield|await)$/;

/** The source with comments, strings, template literals and regexes replaced by spaces (newlines kept). */
export function blank(source: string): string {
  const out = source.split("");
  const wipe = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      wipe(i, stop);
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      wipe(i, stop);
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < source.length && source[j] !== c) j += source[j] === "\\" ? 2 : 1;
      wipe(i + 1, j);
      i = j + 1;
    } else if (c === "/" && REGEX_BEFORE.test(out.slice(Math.max(0, i - 12), i).join("").trimEnd())) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j += source[j] === "\\" ? 2 : 1;
      }
      wipe(i + 1, j);
      i = j + 1;
    } else i++;
  }
  return out.join("");
}

function matching(text: string, open: string, close: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === open) stack.push(i);
    else if (text[i] === close && stack.length) pairs.set(stack.pop()!, i);
  }
  return pairs;
}

/** Past the parameters' `)` at `close`: the body's `{`, skipping a return type; -1 when there is no body. */
function bodyAfter(text: string, close: number): number {
  let i = close + 1;
  while (/\s/.test(text[i] ?? "")) i++;
  if (text[i] === "{") return i;
  if (text[i] !== ":") return -1;
  let depth = 0;
  let expectingType = true;
  for (i++; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) continue;
    if (c === "{" && depth === 0 && !expectingType) return i;
    if ("({[<".includes(c)) depth++;
    else if (")}]".includes(c) || (c === ">" && text[i - 1] !== "=")) depth--;
    else if ((c === ";" || c === "=") && depth === 0 && text[i + 1] !== ">") return -1;
    expectingType = ":|&<,(=[".includes(c) || (c === ">" && text[i - 1] === "=");
    if (depth < 0) return -1;
  }
  return -1;
}

/**
 * Where an arrow's expression body ends: a `;` or `,` at its depth, or the bracket that closes around it; -1
 * when a block opens at its depth, which makes it a function type in a return annotation.
 */
function expressionEnd(text: string, from: number): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === "{" && depth === 0) return -1; // `): (id: string) => T {`: a return type, not an arrow
    if ("([{".includes(c)) depth++;
    else if (")]}".includes(c)) {
      if (depth === 0) return i;
      depth--;
    } else if ((c === ";" || c === ",") && depth === 0) return i;
  }
  return text.length;
}

const lineOf = (text: string, at: number) => text.slice(0, at).split("\n").length;

/** Every function with a block body, and how many lines it spans. */
export function functionSpans(source: string): FunctionSpan[] {
  const text = blank(source);
  const braces = matching(text, "{", "}");
  const parens = matching(text, "(", ")");
  const seen = new Map<number, FunctionSpan>();
  const add = (name: string, headAt: number, body: number) => {
    const end = braces.get(body);
    if (end === undefined || seen.has(body)) return;
    const line = lineOf(text, headAt);
    seen.set(body, { name, line, length: lineOf(text, end) - line + 1 });
  };
  for (const m of text.matchAll(/\bfunction\b\s*\*?\s*([\w$]*)\s*(?:<[^(]*>)?\s*\(/g)) {
    const close = parens.get(m.index! + m[0].length - 1);
    const body = close === undefined ? -1 : bodyAfter(text, close);
    if (body >= 0) add(m[1] || "function", m.index!, body);
  }
  const method = /^[ \t]*(?:(?:public|private|protected|static|async|get|set|override)[ \t]+)*\*?[ \t]*([A-Za-z_$][\w$]*)[ \t]*(?:<[^(\n]*>)?[ \t]*\(/gm;
  for (const m of text.matchAll(method)) {
    if (KEYWORDS.has(m[1]!)) continue;
    const close = parens.get(m.index! + m[0].length - 1);
    const body = close === undefined ? -1 : bodyAfter(text, close);
    if (body >= 0) add(m[1]!, m.index!, body);
  }
  for (const m of text.matchAll(/=>\s*\{/g)) {
    const lineStart = text.lastIndexOf("\n", m.index!) + 1;
    const named = /(?:const|let)\s+([\w$]+)|([\w$]+)\s*:/.exec(text.slice(lineStart, m.index!));
    add(named?.[1] ?? named?.[2] ?? "arrow", m.index!, m.index! + m[0].length - 1);
  }
  for (const m of text.matchAll(/=>\s*(?=[^\s{])/g)) {
    const end = expressionEnd(text, m.index! + m[0].length);
    if (end < 0) continue;
    const lineStart = text.lastIndexOf("\n", m.index!) + 1;
    const named = /(?:const|let)\s+([\w$]+)|([\w$]+)\s*:/.exec(text.slice(lineStart, m.index!));
    const line = lineOf(text, m.index!);
    if (!seen.has(-m.index!)) seen.set(-m.index!, { name: named?.[1] ?? named?.[2] ?? "arrow", line, length: lineOf(text, end) - line + 1 });
  }
  return [...seen.values()].sort((a, b) => a.line - b.line);
}

export const longFunctions = (source: string, max = MAX_FUNCTION_LINES): FunctionSpan[] =>
  functionSpans(source).filter((span) => span.length > max);
