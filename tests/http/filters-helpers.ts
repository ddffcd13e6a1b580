// Shared steps of the filter tests: creating filters through the API as a client does, in JSON, form or
// multipart encoding, and reading what a status's `filtered` says.
import type { TestApp } from "../helpers/app.ts";
import { call, get, type Answer, type User } from "./statuses-helpers.ts";

export * from "./timelines-helpers.ts";

export interface FilterSpec {
  title?: string;
  context?: string[];
  filter_action?: string;
  expires_in?: string | number;
  keywords_attributes?: { keyword?: string; whole_word?: boolean | string; id?: string; _destroy?: boolean | string }[];
}

/** POST /api/v2/filters in JSON; throws unless 200. */
export async function createFilter(t: TestApp, user: User, spec: FilterSpec): Promise<any> {
  const res = await call(t, "POST", "/api/v2/filters", user.token, spec);
  if (res.status !== 200) throw new Error(`filter creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A filter of one keyword. */
export function keywordFilter(t: TestApp, user: User, keyword: string, context: string[], options: Omit<FilterSpec, "keywords_attributes" | "context"> & { whole_word?: boolean } = {}) {
  const { whole_word, ...rest } = options;
  return createFilter(t, user, { title: `no ${keyword}`, context, ...rest, keywords_attributes: [{ keyword, whole_word: whole_word ?? true }] });
}

/** Rails-style form fields of a filter spec (`context[]`, `keywords_attributes[0][keyword]`). */
export function formFields(spec: FilterSpec, indexed = true): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (key === "context") for (const c of value as string[]) out.push(["context[]", c]);
    else if (key === "keywords_attributes") {
      (value as Record<string, unknown>[]).forEach((entry, i) => {
        for (const [k, v] of Object.entries(entry)) out.push([`keywords_attributes[${indexed ? i : ""}][${k}]`, String(v)]);
      });
    } else out.push([key, String(value)]);
  }
  return out;
}

export async function sendForm(t: TestApp, method: string, path: string, token: string, fields: [string, string][]): Promise<Answer> {
  const body = new URLSearchParams(fields).toString();
  const res = await t.request(path, { method, token, body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

export async function sendMultipart(t: TestApp, method: string, path: string, token: string, fields: [string, string][]): Promise<Answer> {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  const res = await t.request(path, { method, token, body: form });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** The statuses of a GET answer (a timeline, an account's statuses), checked to be 200. */
export async function statusesAt(t: TestApp, path: string, token: string): Promise<any[]> {
  await t.deps.jobs.drain();
  const res = await get(t, path, token);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Status id → titles of the filters in its `filtered`. */
export function filteredTitles(statuses: any[]): Record<string, string[]> {
  return Object.fromEntries(statuses.map((s) => [s.id, (s.filtered ?? []).map((r: any) => r.filter.title)]));
}

export const ids = (statuses: { id: string }[]) => statuses.map((s) => s.id);
