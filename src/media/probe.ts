// What ffprobe says about an upload, read as untrusted (strings where numbers belong, NaN, huge values,
// missing keys: the container decides all of it). The input is always opened as a local file with an
// allowed demuxer, never as a URL, protocol or option.
import { resolve } from "node:path";
import { runTool, type FfmpegTools, type RunResult } from "./ffmpeg.ts";

/** The bytes are not a video/audio we can process. The message is safe to show to a client. */
export class UnsupportedMedia extends Error {}

/**
 * Demuxers ffmpeg may open (it matches any name of a multi-name demuxer such as "mov,mp4,m4a,3gp,3g2,mj2"):
 * Mastodon's video and audio types. Playlists (hls), concat and image sequences are never opened: they read
 * other files named inside the upload.
 */
const DEMUXERS = "mov,matroska,ogg,mp3,wav,flac,aac,asf,gif";
const MAX_PROBE_JSON = 1 << 20;

export interface Stream {
  codec?: string;
  profile?: string;
  tag?: string;
  tagString?: string;
  width?: number;
  height?: number;
  rFrameRate?: string;
  frameRate?: number;
  sampleRate?: number;
  channelLayout?: string;
  channels?: number;
  duration?: number;
  /** Frames the container declares (nb_frames); absent when it does not say. */
  frames?: number;
}

export interface Probe {
  formatName: string;
  duration?: number;
  bitrate?: number;
  /** The first video stream that is not cover art. */
  video?: Stream;
  audio?: Stream;
}

/** The input as ffmpeg and ffprobe open it: a local file only (never a protocol or option), allowed demuxers. */
export function inputArgs(path: string): string[] {
  return ["-protocol_whitelist", "file", "-format_whitelist", DEMUXERS, "-i", `file:${resolve(path)}`];
}

/** The client sees `message` (or that it timed out); operators get the tool's stderr as the cause. */
export function failure(run: RunResult, message: string): UnsupportedMedia {
  return new UnsupportedMedia(run.timedOut ? "Processing the file took too long" : message, { cause: run.stderr });
}

export async function probe(tools: FfmpegTools, path: string, timeoutMs: number): Promise<Probe> {
  const args = ["-hide_banner", "-loglevel", "error", "-print_format", "json", "-show_format", "-show_streams", ...inputArgs(path)];
  const run = await runTool(tools.ffprobe, args, timeoutMs, MAX_PROBE_JSON);
  let root: Record<string, unknown> = {};
  try {
    root = record(JSON.parse(run.stdout.toString("utf8")));
  } catch {
    // Not JSON: refused below, like a failed run.
  }
  const format = record(root.format);
  const formatName = text(format.format_name);
  if (run.exitCode !== 0 || !formatName) throw failure(run, "The file is not a video or audio file we can read");
  const streams = Array.isArray(root.streams) ? root.streams.map(record) : [];
  const video = streams.find((s) => s.codec_type === "video" && record(s.disposition).attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === "audio");
  return {
    formatName,
    duration: positive(format.duration),
    bitrate: positive(format.bit_rate),
    video: video && readStream(video),
    audio: audio && readStream(audio),
  };
}

function readStream(s: Record<string, unknown>): Stream {
  const width = positive(s.width);
  const height = positive(s.height);
  return {
    codec: text(s.codec_name),
    profile: text(s.profile),
    tag: text(s.codec_tag),
    tagString: text(s.codec_tag_string),
    width: width && Number.isInteger(width) ? width : undefined,
    height: height && Number.isInteger(height) ? height : undefined,
    rFrameRate: text(s.r_frame_rate),
    // The average rate: r_frame_rate is the finest time step, far above the real rate in variable-rate files.
    frameRate: ratio(s.avg_frame_rate) ?? ratio(s.r_frame_rate),
    sampleRate: positive(s.sample_rate),
    channelLayout: text(s.channel_layout),
    channels: positive(s.channels),
    duration: positive(s.duration),
    frames: positive(s.nb_frames),
  };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * A number above zero, from a number or a numeric string; anything else is unknown. Infinity ("1e999") is
 * kept: it is over every limit, and a side must also be an integer.
 */
function positive(value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return n > 0 ? n : undefined;
}

/** "30000/1001" → 29.97…; "0/0" and garbage → unknown. */
export function ratio(value: unknown): number | undefined {
  const [num, den, extra] = typeof value === "string" ? value.split("/") : [];
  if (extra !== undefined) return undefined;
  const n = positive(num);
  const d = positive(den);
  return n !== undefined && d !== undefined ? positive(n / d) : undefined;
}
