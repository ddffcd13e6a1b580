// A file that came in a multipart body. The HTTP layer streams it to a temporary file under
// <dataDir>/tmp/uploads while it arrives (never holding it whole in memory) and removes that file once the
// request is answered; the domain receives this object and reads the bytes from `path` (or moves the file
// away, which the clean-up then finds already gone). Left-overs of a crash are removed at start-up.
import { mkdir, rm, unlink } from "node:fs/promises";
import { join } from "node:path";

export class UploadedFile {
  constructor(
    /** The temporary file holding the bytes. */
    readonly path: string,
    /** The client's file name: only ever shown, never used as a path. */
    readonly name: string,
    /** The client's declared content type: never trusted (the bytes decide what a file is). */
    readonly type: string,
    /** Bytes written to `path`. */
    readonly size: number,
  ) {}

  /** The file as a Blob (read lazily, sliceable). */
  blob(): Blob {
    return Bun.file(this.path);
  }

  /** The whole file in memory: only for uploads whose size the caller has checked first. */
  async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await Bun.file(this.path).arrayBuffer());
  }
}

/** Where uploads are streamed to while a request is read. */
export const uploadsTempDir = (dataDir: string) => join(dataDir, "tmp", "uploads");

/** Creates the folder and answers it. */
export async function readyUploadsTempDir(dataDir: string): Promise<string> {
  const dir = uploadsTempDir(dataDir);
  await mkdir(dir, { recursive: true });
  return dir;
}

export async function removeUploadedFiles(files: readonly UploadedFile[]): Promise<void> {
  await Promise.all(files.map((file) => unlink(file.path).catch(() => {})));
}

/** At start-up: what a crashed server left half-read. */
export async function removeUploadLeftovers(dataDir: string): Promise<void> {
  await rm(uploadsTempDir(dataDir), { recursive: true, force: true });
}
