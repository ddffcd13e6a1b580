// multipart/form-data read as it streams in: each file part goes straight to a temporary file under
// <dataDir>/tmp/uploads (lib/uploaded-file.ts), so an upload never sits whole in memory; text fields are
// kept, within their own small budget. The body's limit and time-out (body-limits.ts) apply while it
// streams, and a refused or malformed body leaves no file behind.
import { randomBytes } from "node:crypto";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { BadRequest, PayloadTooLarge } from "../../lib/errors.ts";
import { readyUploadsTempDir, removeUploadedFiles, UploadedFile } from "../../lib/uploaded-file.ts";
import { streamBody } from "./body-limits.ts";

export interface MultipartLimits {
  /** The whole body. */
  bodyBytes: number;
  /** All text fields together: they are held in memory. */
  fieldBytes: number;
  timeoutMs: number;
  dataDir: string;
}

export type MultipartEntry = [string, string | UploadedFile];

/** A part's header section larger than this is refused (browsers send a few hundred bytes). */
const MAX_PART_HEADER_BYTES = 16 * 1024;
const HEADER_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");

const malformed = () => new BadRequest("Error occurred while parsing request parameters");

export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^;\s]{1,200}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

function unquote(raw: string): string {
  const value = raw.trim();
  return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value;
}

/** `name` and `filename` from a part's Content-Disposition, and its Content-Type. */
function partHeaders(section: string): { name: string | null; filename: string | null; type: string } {
  let disposition = "";
  let type = "";
  for (const line of section.split("\r\n")) {
    const colon = line.indexOf(":");
    const header = line.slice(0, colon).trim().toLowerCase();
    if (header === "content-disposition") disposition = line.slice(colon + 1);
    else if (header === "content-type") type = line.slice(colon + 1).trim();
  }
  const params = new Map<string, string>();
  for (const match of disposition.matchAll(/;\s*([^=;\s]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g)) {
    params.set(match[1]!.toLowerCase(), unquote(match[2]!));
  }
  let filename = params.get("filename") ?? null;
  const extended = params.get("filename*");
  if (extended) {
    try {
      filename = decodeURIComponent(extended.replace(/^[\w-]+'[^']*'/, ""));
    } catch {
      // A broken RFC 5987 name: keep the plain one.
    }
  }
  return { name: params.get("name") ?? null, filename, type };
}

type Part =
  | { kind: "field"; name: string; chunks: Buffer[] }
  | { kind: "file"; name: string; filename: string; type: string; path: string; handle: FileHandle; size: number }
  | { kind: "skipped" };

/** The parser's state between chunks: where it is in the body and what it holds unsent. */
class MultipartReader {
  readonly entries: MultipartEntry[] = [];
  readonly files: UploadedFile[] = [];
  private pending: Buffer = Buffer.from(CRLF); // the first delimiter has no CRLF before it
  private state: "preamble" | "delimiter" | "headers" | "body" | "done" = "preamble";
  private part: Part = { kind: "skipped" };
  private fieldBytes = 0;
  private readonly delimiter: Buffer;

  constructor(boundary: string, private readonly dir: string, private readonly limits: MultipartLimits) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
  }

  async push(chunk: Uint8Array): Promise<void> {
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (await this.leftoverSettled(view)) this.pending = view;
    else this.pending = this.pending.length ? Buffer.concat([this.pending, view]) : view;
    while (await this.step());
  }

  /**
   * Inside a part, `pending` holds only the few bytes that might begin a delimiter. When the new chunk shows
   * they do not, they are written out and the chunk is parsed as it is: copying every chunk behind them
   * made as much garbage as the upload's size, which the collector returned too late (RSS +100 MB an upload).
   */
  private async leftoverSettled(chunk: Buffer): Promise<boolean> {
    const held = this.pending;
    if (this.state !== "body" && this.state !== "preamble") return false;
    if (held.length === 0) return true;
    if (held.length >= this.delimiter.length || chunk.length < this.delimiter.length) return false;
    const at = Buffer.concat([held, chunk.subarray(0, this.delimiter.length)]).indexOf(this.delimiter);
    if (at >= 0 && at < held.length) return false;
    if (this.state === "body") await this.write(held);
    return true;
  }

  /** Handles what `pending` allows; false when it needs more bytes. */
  private async step(): Promise<boolean> {
    switch (this.state) {
      case "preamble":
      case "body": {
        const at = this.pending.indexOf(this.delimiter);
        const safe = at >= 0 ? at : Math.max(0, this.pending.length - this.delimiter.length + 1);
        if (this.state === "body" && safe > 0) await this.write(this.pending.subarray(0, safe));
        this.pending = this.pending.subarray(at >= 0 ? at + this.delimiter.length : safe);
        if (at < 0) return false;
        if (this.state === "body") await this.finishPart();
        this.state = "delimiter";
        return true;
      }
      case "delimiter": {
        if (this.pending.length < 2) return false;
        if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
          this.state = "done";
          return false;
        }
        const end = this.pending.indexOf(CRLF);
        if (end < 0) {
          if (this.pending.length > 256) throw malformed();
          return false;
        }
        if (this.pending.subarray(0, end).toString("latin1").trim() !== "") throw malformed();
        this.pending = this.pending.subarray(end + 2);
        this.state = "headers";
        return true;
      }
      case "headers": {
        const end = this.pending.indexOf(HEADER_END);
        if (end < 0) {
          if (this.pending.length > MAX_PART_HEADER_BYTES) throw malformed();
          return false;
        }
        await this.startPart(this.pending.subarray(0, end).toString("utf8"));
        this.pending = this.pending.subarray(end + HEADER_END.length);
        this.state = "body";
        return true;
      }
      case "done":
        this.pending = Buffer.alloc(0);
        return false;
    }
  }

  private async startPart(section: string): Promise<void> {
    const { name, filename, type } = partHeaders(section);
    if (name === null) this.part = { kind: "skipped" };
    else if (filename === null) this.part = { kind: "field", name, chunks: [] };
    else {
      const path = join(this.dir, `upload-${randomBytes(16).toString("hex")}`);
      const handle = await open(path, "wx", 0o600);
      this.part = { kind: "file", name, filename, type, path, handle, size: 0 };
    }
  }

  private async write(bytes: Buffer): Promise<void> {
    const part = this.part;
    if (part.kind === "field") {
      this.fieldBytes += bytes.length;
      if (this.fieldBytes > this.limits.fieldBytes) throw new PayloadTooLarge(this.limits.fieldBytes);
      part.chunks.push(Buffer.from(bytes));
    } else if (part.kind === "file") {
      part.size += bytes.length;
      await part.handle.write(bytes);
    }
  }

  private async finishPart(): Promise<void> {
    const part = this.part;
    this.part = { kind: "skipped" };
    if (part.kind === "field") this.entries.push([part.name, Buffer.concat(part.chunks).toString("utf8")]);
    if (part.kind !== "file") return;
    await part.handle.close();
    const file = new UploadedFile(part.path, part.filename, part.type, part.size);
    this.files.push(file);
    // A file input left empty arrives with an empty file name and no bytes: the form's "no file", as in Rails.
    this.entries.push([part.name, part.filename === "" && part.size === 0 ? "" : file]);
  }

  /** After a failure: closes and removes whatever was written. */
  async abandon(): Promise<void> {
    const part = this.part;
    if (part.kind === "file") {
      await part.handle.close().catch(() => {});
      this.files.push(new UploadedFile(part.path, part.filename, part.type, part.size));
    }
    await removeUploadedFiles(this.files);
  }

  get complete(): boolean {
    return this.state === "done";
  }
}

/**
 * Reads a multipart body under `limits`. Answers its fields in order (files as UploadedFile) and the files
 * written, which the caller removes once the request is answered. 400 for a malformed body.
 */
export async function readMultipart(
  request: Request,
  contentType: string,
  limits: MultipartLimits,
): Promise<{ entries: MultipartEntry[]; files: UploadedFile[] }> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw malformed();
  const reader = new MultipartReader(boundary, await readyUploadsTempDir(limits.dataDir), limits);
  try {
    await streamBody(request, limits.bodyBytes, limits.timeoutMs, (chunk) => reader.push(chunk));
    if (!reader.complete) throw malformed();
  } catch (error) {
    await reader.abandon();
    throw error;
  }
  return { entries: reader.entries, files: reader.files };
}
