// Error texts in the client's language (catalogue.ts), at the edge: the code writes English; the error
// plugin passes each answer's `error` (and the descriptions in `details`) through here. A "Validation
// failed: A, B" message is translated part by part ("<Attribute> <description>"); any part the catalogue
// does not know stays English, so nothing is lost in translation.
import { ATTRIBUTES, DESCRIPTIONS, MESSAGES, TEMPLATES, type Locale, type Translations } from "./catalogue.ts";

type Lang = keyof Translations;

interface Template {
  pattern: RegExp;
  names: string[];
  translations: Translations;
}

function compile(table: Record<string, Translations>): Template[] {
  return Object.entries(table).map(([english, translations]) => {
    const names: string[] = [];
    const source = english
      .split(/(%\{\w+\})/)
      .map((piece) => {
        const name = /^%\{(\w+)\}$/.exec(piece)?.[1];
        if (!name) return piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(name);
        return name === "errors" ? "(.+)" : "(.+?)";
      })
      .join("");
    return { pattern: new RegExp(`^${source}$`, "s"), names, translations };
  });
}

const TEMPLATE_LIST = compile(TEMPLATES);
const DESCRIPTION_LIST = compile(DESCRIPTIONS);
// Longest first, so "Display name" wins over a shorter name at the start of the same text.
const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES).sort((a, b) => b.length - a.length);

function fill(text: string, names: string[], values: string[]): string {
  return names.reduce((out, name, i) => out.replace(`%{${name}}`, values[i]!), text);
}

function matchIn(list: Template[], text: string, lang: Lang): { translated: string; values: string[]; names: string[] } | null {
  for (const template of list) {
    const found = template.pattern.exec(text);
    if (found) return { translated: template.translations[lang], values: found.slice(1), names: template.names };
  }
  return null;
}

/** A validation description ("is too long (maximum is 30 characters)") in `lang`, or null. */
export function translateDescription(description: string, lang: Lang): string | null {
  const found = matchIn(DESCRIPTION_LIST, description, lang);
  return found ? fill(found.translated, found.names, found.values) : null;
}

/** One part of a validation message: a whole known message, or "<Attribute> <description>". */
function translatePart(part: string, lang: Lang): string {
  const whole = MESSAGES[part]?.[lang];
  if (whole) return whole;
  for (const attribute of ATTRIBUTE_NAMES) {
    if (!part.startsWith(`${attribute} `)) continue;
    const description = translateDescription(part.slice(attribute.length + 1), lang);
    if (description === null) continue;
    const name = ATTRIBUTES[attribute]![lang];
    return lang === "ja" ? `${name}${description}` : `${name} ${description}`;
  }
  return part;
}

/** `message` in `locale`; unchanged for English and for text the catalogue does not know. */
export function translateMessage(message: string, locale: Locale): string {
  if (locale === "en") return message;
  const whole = MESSAGES[message]?.[locale];
  if (whole) return whole;
  const found = matchIn(TEMPLATE_LIST, message, locale);
  if (!found) return message;
  const values = found.names.map((name, i) =>
    name === "errors" ? found.values[i]!.split(", ").map((part) => translatePart(part, locale)).join(", ") : found.values[i]!,
  );
  return fill(found.translated, found.names, values);
}

/** An error Response with its `error` and `details` descriptions in `locale` (other bodies unchanged). */
export async function localised(response: Response, locale: Locale): Promise<Response> {
  if (!response.headers.get("content-type")?.startsWith("application/json")) return response;
  const body = (await response.json()) as Record<string, unknown>;
  if (typeof body.error === "string") body.error = translateMessage(body.error, locale);
  if (locale !== "en" && body.details && typeof body.details === "object") {
    for (const problems of Object.values(body.details as Record<string, { description: string }[]>)) {
      for (const problem of problems) problem.description = translateDescription(problem.description, locale) ?? problem.description;
    }
  }
  const headers = new Headers(response.headers);
  headers.set("content-language", locale);
  return new Response(JSON.stringify(body), { status: response.status, headers });
}
