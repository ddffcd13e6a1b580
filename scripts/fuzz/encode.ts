// Encoders that can say what the platform's own would refuse to: lone surrogates (as WTF-8 bytes),
// `__proto__` as an ordinary key, JSON nested deeper than the fuzzer's own stack, Rails-style keys.

/** JSON text spliced into a body as it is (deep nesting, huge numbers). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A form or query pair written exactly as given, not escaped. */
export type RawPair = [string, string];

export type Bag = Record<string, unknown>;

/** A bag without a prototype, so that `__proto__` and `constructor` are plain keys in it. */
export function bag(): Bag {
  return Object.create(null) as Bag;
}

const utf8 = new TextEncoder();

/** UTF-8 of every code point, and of lone surrogates as if they were code points (WTF-8). */
export function wtf8(text: string): Uint8Array {
  if (text.isWellFormed()) return utf8.encode(text);
  const bytes = new Uint8Array(text.length * 3);
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    if (c < 0x80) bytes[at++] = c;
    else if (c < 0x800) {
      bytes[at++] = 0xc0 | (c >> 6);
      bytes[at++] = 0x80 | (c & 63);
    } else if (c < 0x10000) {
      bytes[at++] = 0xe0 | (c >> 12);
      bytes[at++] = 0x80 | ((c >> 6) & 63);
      bytes[at++] = 0x80 | (c & 63);
    } else {
      bytes[at++] = 0xf0 | (c >> 18);
      bytes[at++] = 0x80 | ((c >> 12) & 63);
      bytes[at++] = 0x80 | ((c >> 6) & 63);
      bytes[at++] = 0x80 | (c & 63);
    }
  }
  return bytes.subarray(0, at);
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const HEX = Array.from({ length: 256 }, (_, b) => "%" + b.toString(16).toUpperCase().padStart(2, "0"));

/** Percent-encoding of the WTF-8 bytes, so that lone surrogates reach the server as the bytes ED A0 80 and alike. */
export function percentEncode(text: string): string {
  if (text.isWellFormed()) return encodeURIComponent(text);
  const parts: string[] = [];
  for (const byte of wtf8(text)) {
    const ch = String.fromCharCode(byte);
    parts.push(byte < 0x80 && UNRESERVED.test(ch) ? ch : HEX[byte]!);
  }
  return parts.join("");
}

function scalar(value: unknown): string | File {
  if (value instanceof File) return value;
  if (value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return "";
  return String(value);
}

/** Rails-style pairs: `a[b]=…`, `a[]=…` for lists of scalars, `a[0][b]=…` for lists of hashes. */
export function railsPairs(value: Bag): [string, string | File][] {
  const out: [string, string | File][] = [];
  const walk = (prefix: string, v: unknown) => {
    if (Array.isArray(v)) {
      if (v.length === 0) out.push([`${prefix}[]`, ""]);
      v.forEach((item, i) => walk(isPlainObject(item) ? `${prefix}[${i}]` : `${prefix}[]`, item));
    } else if (isPlainObject(v)) {
      for (const key of Object.keys(v)) walk(`${prefix}[${key}]`, v[key]);
    } else out.push([prefix, scalar(v)]);
  };
  for (const key of Object.keys(value)) walk(key, value[key]);
  return out;
}

function isPlainObject(v: unknown): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof File) && !(v instanceof RawJson);
}

export function formEncode(pairs: [string, string | File][], raw: RawPair[] = []): string {
  const encoded = pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(typeof v === "string" ? v : v.name)}`);
  return [...encoded, ...raw.map(([k, v]) => `${k}=${v}`)].join("&");
}

/** JSON text of a bag that may hold RawJson, Files and own `__proto__` keys. */
export function jsonEncode(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof File) return JSON.stringify(value.name);
  if (Array.isArray(value)) return `[${value.map(jsonEncode).join(",")}]`;
  if (isPlainObject(value)) {
    return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${jsonEncode(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null) ?? "null";
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A multipart/form-data body built byte by byte (names may hold quotes, newlines, lone surrogates). */
export async function multipartEncode(pairs: [string, string | File][], boundary: string, raw: RawPair[] = []): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const head = (name: string, file?: File) =>
    wtf8(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name.replaceAll('"', "%22")}"` +
        (file ? `; filename="${file.name.replaceAll('"', "%22")}"\r\nContent-Type: ${file.type || "application/octet-stream"}` : "") +
        "\r\n\r\n",
    );
  for (const [name, value] of [...pairs, ...raw]) {
    if (value instanceof File) parts.push(head(name, value), new Uint8Array(await value.arrayBuffer()));
    else parts.push(head(name), wtf8(value));
    parts.push(wtf8("\r\n"));
  }
  parts.push(wtf8(`--${boundary}--\r\n`));
  return concat(parts);
}
