// Bodies and query strings that no well-behaved client sends: broken JSON, broken percent-escapes,
// broken multipart, and content types that lie about their body.
import { wtf8 } from "./encode.ts";
import type { Random } from "./random.ts";

export interface RawBody {
  contentType?: string;
  body: Uint8Array;
}

const BOUNDARY = "fuzzBoundary7MA4YWxk";

function part(name: string, value: string, extraHeaders = ""): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${extraHeaders}\r\n\r\n${value}\r\n`;
}

const JSON_BODIES = [
  '{"status": "abc',
  '{"status": "abc",}',
  "{'status': 'abc'}",
  "NaN",
  "[1, 2, 3]",
  '"just a string"',
  "null",
  "true",
  "1e999999",
  "-",
  '{"a": 1e999999}',
  `{"a": ${"9".repeat(20_000)}}`,
  "\ufeff{\"status\": \"bom\"}",
  '{"status": "a\\ud800b"}',
  '{"status": "\\u0000"}',
  '{"__proto__": {"role": "Owner"}, "__proto__": {"visibility": "direct"}}',
  '{"constructor": {"prototype": {"role": "Owner"}}}',
  '{"a":1,"a":2,"a":{"b":[]}}',
  "   ",
  "{}".repeat(10_000),
  '{"status": "x"}garbage',
  "\u0000",
];

const FORM_BODIES = [
  "%",
  "%zz=1",
  "status=%E0%A4%A",
  "status=%ED%A0%80",
  "status=%FF%FE",
  "&&&==&=",
  "a[=1",
  "a]=1",
  "a[b]c=1",
  "[]=1",
  "[[]]=1",
  "a[][]=1&a[]=2",
  "a[0]=1&a[]=2&a[x]=3",
  "a=1&a[b]=2",
  "a[b]=1&a=2",
  "a[99999999999]=1",
  "a[-1]=1",
  "a[1e3]=1",
  `${"a[".repeat(5_000)}=1`,
  `${"[".repeat(5_000)}=1`,
  "=".repeat(10_000),
  `status=${"%41".repeat(50_000)}`,
];

const MULTIPART_BODIES: (() => [string, string])[] = [
  () => ["multipart/form-data", part("status", "no boundary in the content type") + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("status", "unterminated")],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\n\r\nno headers\r\n--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=wrong`, part("status", "wrong boundary") + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${"b".repeat(300)}`, `--${"b".repeat(300)}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("status", "lf only").replaceAll("\r\n", "\n") + `--${BOUNDARY}--\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("status", "x", `\r\nX-Huge: ${"h".repeat(100_000)}`) + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("__proto__[role]", "Owner") + part("status", "x") + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("status", "eA==", "\r\nContent-Transfer-Encoding: base64") + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("avatar", "not an image", '; filename="../../../etc/passwd"\r\nContent-Type: image/png') + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, part("status", "a") + part("status", "b") + part("status[]", "c") + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary=${BOUNDARY}`, ""],
  () => [`multipart/mixed; boundary=${BOUNDARY}`, part("status", "mixed") + `--${BOUNDARY}--\r\n`],
  () => [`multipart/form-data; boundary="${BOUNDARY}"; charset=utf-7`, part("status", "+AGEAYgBj-") + `--${BOUNDARY}--\r\n`],
];

const LYING_TYPES = [
  "text/plain",
  "application/xml",
  "application/octet-stream",
  "application/json; charset=utf-16",
  "application/vnd.api+json",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "APPLICATION/JSON",
  "application/json, text/html",
  "json",
  ";;;",
  "multipart/form-data; boundary=",
  "x".repeat(8_000),
];

export function malformedBody(rng: Random): RawBody {
  const kind = rng.pick(["json", "form", "multipart", "bytes"] as const);
  if (kind === "json") return { contentType: "application/json", body: wtf8(rng.pick(JSON_BODIES)) };
  if (kind === "form") return { contentType: "application/x-www-form-urlencoded", body: wtf8(rng.pick(FORM_BODIES)) };
  if (kind === "multipart") {
    const [contentType, body] = rng.pick(MULTIPART_BODIES)();
    return { contentType, body: wtf8(body) };
  }
  const bytes = new Uint8Array(rng.pick([1, 100, 10_000]));
  for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(0, 255);
  return { contentType: rng.pick(["application/json", "application/x-www-form-urlencoded", `multipart/form-data; boundary=${BOUNDARY}`]), body: bytes };
}

/** A content type that does not describe the body it comes with (or none at all). */
export function lyingContentType(rng: Random, actual: string | undefined): string | undefined {
  const others = ["application/json", "application/x-www-form-urlencoded", `multipart/form-data; boundary=${BOUNDARY}`, ...LYING_TYPES];
  const choice = rng.chance(0.15) ? undefined : rng.pick(others);
  return choice === actual ? "text/plain" : choice;
}

/** Query strings that stress the parameter normaliser rather than the route. */
export const QUERY_ABUSE = [...FORM_BODIES, Array.from({ length: 1_500 }, (_, i) => `k${i}=1`).join("&"), "ids[]=1&ids[]=2&ids=3"];
