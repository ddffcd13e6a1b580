// Video, animated GIF ("gifv") and audio uploads: probed with ffprobe, re-encoded with ffmpeg into the one
// format clients play everywhere (MP4 H.264/AAC, or MP3), metadata stripped, plus a still frame for the
// preview and Mastodon's `meta`. Everything ffprobe reports is read as untrusted: the container decides it.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { runTool, type FfmpegTools, type RunResult } from "./ffmpeg.ts";

/** The bytes are not a video/audio we can process. The message is safe to show to a client. */
export class UnsupportedMedia extends Error {}

export interface AvLimits {
  /** Larger videos are downscaled (aspect kept, even dimensions). */
  maxPixels: number;
  /** Higher frame rates are reduced to this. */
  maxFrameRate: number;
  /** Longer input is refused. */
  maxDurationSeconds: number;
  /** Each ffmpeg/ffprobe run is killed after this. */
  timeoutMs: number;
}

export interface ProcessedAudioVisual {
  /** "gifv" for animated GIFs and videos without sound (as Mastodon), "video" with sound, "audio" without video. */
  type: "video" | "gifv" | "audio";
  /** The transcoded file in `workDir`; the caller moves it into storage. */
  file: { path: string; extension: "mp4" | "mp3"; contentType: "video/mp4" | "audio/mpeg"; size: number };
  /** A JPEG still of the transcoded video at its size; null for audio. */
  previewFrame: Buffer | null;
  /** Mastodon's meta for the type, without `small`, `focus` and `colors`. */
  meta: Record<string, unknown>;
}

/**
 * Demuxers ffmpeg may open (it matches any name of a multi-name demuxer such as "mov,mp4,m4a,3gp,3g2,mj2"):
 * Mastodon's video and audio types. Playlists (hls), concat and image sequences are never opened: they read
 * other files named inside the upload.
 */
const DEMUXERS = "mov,matroska,ogg,mp3,wav,flac,aac,asf,gif";
/** Wider or taller than any codec we decode; refused before ffmpeg allocates a frame. */
const MAX_SIDE = 16384;
const THREADS = "2";
const MAX_PROBE_JSON = 1 << 20;
const MAX_PREVIEW = 32 << 20;

interface Stream {
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
}

interface Probe {
  formatName: string;
  duration?: number;
  bitrate?: number;
  /** The first video stream that is not cover art. */
  video?: Stream;
  audio?: Stream;
}

export async function processAudioVisual(
  tools: FfmpegTools,
  inputPath: string,
  workDir: string,
  limits: AvLimits,
  isGif = false,
): Promise<ProcessedAudioVisual> {
  const input = await probe(tools, inputPath, limits.timeoutMs);
  if (isGif && (input.formatName !== "gif" || !input.video)) throw new UnsupportedMedia("The file is not an animated GIF");
  if (input.video) checkSize(input.video);
  else if (!input.audio) throw new UnsupportedMedia("The file has no video or audio stream");
  const duration = input.duration ?? input.video?.duration ?? input.audio?.duration;
  if (duration !== undefined && duration > limits.maxDurationSeconds) {
    throw new UnsupportedMedia(`The file is longer than ${limits.maxDurationSeconds} seconds`);
  }

  const type = !input.video ? "audio" : isGif || !input.audio ? "gifv" : "video";
  const extension = type === "audio" ? "mp3" : "mp4";
  const outputPath = resolve(workDir, `transcoded.${extension}`);
  const run = await runFfmpeg(tools, limits, [
    ...inputArgs(inputPath),
    // A lying or endless stream stops here even when the container claimed a short duration.
    ...["-t", String(limits.maxDurationSeconds), "-map_metadata", "-1", "-map_chapters", "-1"],
    ...(type === "audio" ? audioArgs() : videoArgs(input.video!, type === "video", limits)),
    "-y",
    `file:${outputPath}`,
  ]);
  if (run.exitCode !== 0) throw failure(run, "The file could not be converted");

  const output = await probe(tools, outputPath, limits.timeoutMs);
  if (output.duration === undefined) throw new UnsupportedMedia("Nothing in the file could be decoded");
  const file = { path: outputPath, size: (await stat(outputPath)).size };
  if (type === "audio") {
    return { type, file: { ...file, extension: "mp3", contentType: "audio/mpeg" }, previewFrame: null, meta: audioMeta(output) };
  }
  if (!output.video) throw new UnsupportedMedia("Nothing in the file could be decoded");
  checkSize(output.video);
  return {
    type,
    file: { ...file, extension: "mp4", contentType: "video/mp4" },
    previewFrame: await previewFrame(tools, outputPath, output.duration, limits),
    meta: videoMeta(output, output.video),
  };
}

/** The input as ffmpeg and ffprobe open it: a local file only (never a protocol or option), allowed demuxers. */
function inputArgs(path: string): string[] {
  return ["-protocol_whitelist", "file", "-format_whitelist", DEMUXERS, "-i", `file:${resolve(path)}`];
}

/** `args` start with the input options; `-threads` here is the decoder's, the encoder takes its own. */
function runFfmpeg(tools: FfmpegTools, limits: AvLimits, args: string[], maxStdout?: number): Promise<RunResult> {
  return runTool(tools.ffmpeg, ["-nostdin", "-hide_banner", "-loglevel", "error", "-threads", THREADS, ...args], limits.timeoutMs, maxStdout);
}

/** The client sees `message` (or that it timed out); operators get the tool's stderr as the cause. */
function failure(run: RunResult, message: string): UnsupportedMedia {
  return new UnsupportedMedia(run.timedOut ? "Processing the file took too long" : message, { cause: run.stderr });
}

function checkSize({ width, height }: Stream) {
  if (!width || !height || width > MAX_SIDE || height > MAX_SIDE) {
    throw new UnsupportedMedia("The video's dimensions are not supported");
  }
}

/** H.264 yuv420p in MP4, with AAC when there is sound; frames dropped above the frame-rate limit. */
function videoArgs(video: Stream, withAudio: boolean, limits: AvLimits): string[] {
  // Computed by ffmpeg from the frames it decodes, which are already turned upright (a phone's portrait video
  // is stored landscape with a rotation). At most maxPixels, aspect kept, even sides (yuv420p needs them).
  const factor = `min(1\\,sqrt(${limits.maxPixels}/(iw*ih)))`;
  const side = (dimension: string) => `max(2\\,trunc(${factor}*${dimension}/2)*2)`;
  const filters = [`scale=w='${side("iw")}':h='${side("ih")}'`, "format=yuv420p"];
  if (video.frameRate !== undefined && video.frameRate > limits.maxFrameRate) filters.unshift(`fps=fps=${limits.maxFrameRate}`);
  return [
    ...["-map", "0:V:0", "-vf", filters.join(","), "-c:v", "libx264", "-preset", "veryfast", "-crf", "23"],
    ...(withAudio ? ["-map", "0:a:0", "-c:a", "aac", "-b:a", "128k"] : ["-an"]),
    ...["-threads", THREADS, "-movflags", "+faststart", "-f", "mp4"],
  ];
}

/** MP3 of the first audio stream; cover art and other streams are not mapped. */
function audioArgs(): string[] {
  return ["-map", "0:a:0", "-c:a", "libmp3lame", "-q:a", "2", "-f", "mp3"];
}

/** One JPEG frame a second in, or the first frame of a clip under two seconds. */
async function previewFrame(tools: FfmpegTools, videoPath: string, duration: number, limits: AvLimits): Promise<Buffer> {
  const seek = duration >= 2 ? ["-ss", "1"] : [];
  const args = [...seek, ...inputArgs(videoPath), "-frames:v", "1", "-q:v", "2", "-f", "mjpeg", "pipe:1"];
  const run = await runFfmpeg(tools, limits, args, MAX_PREVIEW);
  if (run.exitCode !== 0 || run.stdout.length === 0) throw failure(run, "Nothing in the file could be decoded");
  return run.stdout;
}

async function probe(tools: FfmpegTools, path: string, timeoutMs: number): Promise<Probe> {
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
  };
}

function videoMeta(probe: Probe, video: Stream): Record<string, unknown> {
  const { width = 0, height = 0 } = video;
  return compact({
    ...timing(probe),
    fps: video.frameRate !== undefined ? round2(video.frameRate) : undefined,
    size: `${width}x${height}`,
    width,
    height,
    aspect: width / height,
    ...audioFields(probe.audio),
    // size and aspect beside Mastodon's video keys: clients read them from `original` for every type.
    original: compact({ width, height, size: `${width}x${height}`, aspect: width / height, frame_rate: video.rFrameRate, duration: probe.duration, bitrate: probe.bitrate }),
  });
}

function audioMeta(probe: Probe): Record<string, unknown> {
  return compact({
    ...timing(probe),
    ...audioFields(probe.audio),
    original: compact({ duration: probe.duration, bitrate: probe.bitrate }),
  });
}

function timing({ duration = 0 }: Probe) {
  return { length: formatLength(duration), duration: round2(duration) };
}

/** Mastodon's audio keys, worded as ffmpeg describes a stream ("aac (LC) (mp4a / 0x6134706D)", "44100 Hz"). */
function audioFields(audio: Stream | undefined): Record<string, unknown> {
  if (!audio) return {};
  const tag = /^0x([0-9a-f]+)$/i.exec(audio.tag ?? "")?.[1];
  const encode = [
    audio.codec ?? "unknown",
    audio.profile ? `(${audio.profile})` : undefined,
    tag && Number.parseInt(tag, 16) !== 0 ? `(${audio.tagString} / 0x${tag.toUpperCase()})` : undefined,
  ];
  return compact({
    audio_encode: encode.filter(Boolean).join(" "),
    audio_bitrate: audio.sampleRate !== undefined ? `${audio.sampleRate} Hz` : undefined,
    audio_channels: audio.channelLayout ?? (audio.channels !== undefined ? `${audio.channels} channels` : undefined),
  });
}

/** "0:01:28.65": hours, minutes, seconds and hundredths. */
function formatLength(seconds: number): string {
  const hundredths = Math.round(seconds * 100);
  const pad = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(hundredths / 360_000);
  return `${h}:${pad(Math.floor(hundredths / 6000) % 60)}:${pad(Math.floor(hundredths / 100) % 60)}.${pad(hundredths % 100)}`;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Without undefined values, which a store might keep as null. */
function compact(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
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
function ratio(value: unknown): number | undefined {
  const [num, den, extra] = typeof value === "string" ? value.split("/") : [];
  if (extra !== undefined) return undefined;
  const n = positive(num);
  const d = positive(den);
  return n !== undefined && d !== undefined ? positive(n / d) : undefined;
}
