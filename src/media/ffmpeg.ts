// Finding ffmpeg and ffprobe, and running them with a time limit and bounded output. The npm packages
// @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe ship static binaries for development and `bun
// src/main.ts`; the single executable cannot embed them, so there the operator sets WARREN_FFMPEG_PATH /
// WARREN_FFPROBE_PATH or installs the tools on PATH.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";

export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
}

export const FFMPEG_MISSING =
  "Video and audio uploads need ffmpeg and ffprobe: set WARREN_FFMPEG_PATH and WARREN_FFPROBE_PATH, or install them on PATH";

type Env = Record<string, string | undefined>;

/** The binary of an installer package, or undefined when the package or its platform binary is absent. */
function fromPackage(name: string): string | undefined {
  try {
    // The name is a parameter so the bundler leaves this require alone; in the executable it throws.
    const path: unknown = createRequire(import.meta.url)(name).path;
    return typeof path === "string" && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One tool: the environment variable when set (a path or a name on PATH; a wrong value means missing rather
 * than silently using another binary), else the npm package, else PATH.
 */
function locate(tool: "ffmpeg" | "ffprobe", variable: string, env: Env): string | null {
  const configured = env[variable];
  if (configured) return Bun.which(configured);
  return fromPackage(`@${tool}-installer/${tool}`) ?? Bun.which(tool);
}

/** findFfmpeg without the cache, reading `env`. */
export function locateFfmpeg(env: Env): FfmpegTools | null {
  const ffmpeg = locate("ffmpeg", "WARREN_FFMPEG_PATH", env);
  const ffprobe = locate("ffprobe", "WARREN_FFPROBE_PATH", env);
  return ffmpeg && ffprobe ? { ffmpeg, ffprobe } : null;
}

let found: FfmpegTools | null | undefined;

/**
 * WARREN_FFMPEG_PATH / WARREN_FFPROBE_PATH when set; else the npm packages' binaries when they exist on disk;
 * else `ffmpeg`/`ffprobe` on PATH. null when either is missing. Cached per process.
 */
export function findFfmpeg(): FfmpegTools | null {
  if (found === undefined) found = locateFfmpeg(process.env);
  return found;
}

export interface RunResult {
  /** The exit code; null when the process was killed (timeout or too much output). */
  exitCode: number | null;
  timedOut: boolean;
  /** At most `maxStdout` bytes; the process is killed when it writes more. */
  stdout: Buffer;
  /** The last few KB only: enough for the error, bounded whatever the tool prints. */
  stderr: string;
}

const STDERR_TAIL = 4096;

/** Runs a tool without a shell, stdin closed, killed after `timeoutMs`. Throws only when it cannot start. */
export async function runTool(binary: string, args: string[], timeoutMs: number, maxStdout = 0): Promise<RunResult> {
  const child = Bun.spawn([binary, ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  try {
    const [stdout, stderr] = await Promise.all([
      readHead(child.stdout, maxStdout, () => child.kill("SIGKILL")),
      readTail(child.stderr, STDERR_TAIL),
    ]);
    await child.exited;
    return { exitCode: child.exitCode, timedOut, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

async function readHead(stream: ReadableStream<Uint8Array>, limit: number, onOverflow: () => void): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > limit) {
      onOverflow();
      return Buffer.alloc(0);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function readTail(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  let tail = Buffer.alloc(0);
  for await (const chunk of stream) {
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > limit) tail = tail.subarray(tail.length - limit);
  }
  return tail.toString("utf8");
}
