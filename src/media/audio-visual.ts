// Video, animated GIF ("gifv") and audio uploads: probed with ffprobe and checked against Mastodon's limits
// (av-limits.ts) before anything is decoded, then re-encoded with ffmpeg, within a time budget, into the one
// format clients play everywhere (MP4 H.264/AAC, or MP3), metadata stripped, plus a still frame for the
// preview and Mastodon's `meta`.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { checkLimits, checkSize, transcodeBudgetMs, type AvLimits } from "./av-limits.ts";
import { runTool, type FfmpegTools, type RunResult } from "./ffmpeg.ts";
import { failure, inputArgs, probe, UnsupportedMedia, type Probe, type Stream } from "./probe.ts";

export { UnsupportedMedia, type AvLimits };

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

const MAX_PREVIEW = 32 << 20;

/** Probes `inputPath` and refuses it (UnsupportedMedia) when it is past a limit: cheap, before any transcode. */
export async function checkAudioVisual(tools: FfmpegTools, inputPath: string, limits: AvLimits, isGif = false): Promise<Probe> {
  const input = await probe(tools, inputPath, limits.probeTimeoutMs);
  checkLimits(input, limits, isGif);
  return input;
}

export async function processAudioVisual(
  tools: FfmpegTools,
  inputPath: string,
  workDir: string,
  limits: AvLimits,
  isGif = false,
): Promise<ProcessedAudioVisual> {
  const input = await checkAudioVisual(tools, inputPath, limits, isGif);
  const type = !input.video ? "audio" : isGif || !input.audio ? "gifv" : "video";
  const extension = type === "audio" ? "mp3" : "mp4";
  const outputPath = resolve(workDir, `transcoded.${extension}`);
  const args = [
    ...inputArgs(inputPath),
    // A lying or endless stream stops here even when the container claimed a short duration or few frames.
    ...["-t", String(limits.maxDurationSeconds), "-map_metadata", "-1", "-map_chapters", "-1"],
    ...(type === "audio" ? audioArgs() : videoArgs(type === "video", limits)),
    "-y",
    `file:${outputPath}`,
  ];
  const run = await runFfmpeg(tools, limits, args, transcodeBudgetMs(input, limits));
  if (run.exitCode !== 0) throw failure(run, "The file could not be converted");

  const output = await probe(tools, outputPath, limits.probeTimeoutMs);
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

/** `args` start with the input options; `-threads` here is the decoder's, the encoder takes its own. */
function runFfmpeg(tools: FfmpegTools, limits: AvLimits, args: string[], timeoutMs: number, maxStdout?: number): Promise<RunResult> {
  const threads = String(limits.threads);
  return runTool(tools.ffmpeg, ["-nostdin", "-hide_banner", "-loglevel", "error", "-threads", threads, ...args], timeoutMs, maxStdout);
}

/** H.264 yuv420p in MP4, with AAC when there is sound; at most `maxFrames` frames. */
function videoArgs(withAudio: boolean, limits: AvLimits): string[] {
  // Even sides (yuv420p needs them), computed by ffmpeg from the frames it decodes, which are already turned
  // upright (a phone's portrait video is stored landscape with a rotation).
  const side = (dimension: string) => `max(2\\,trunc(${dimension}/2)*2)`;
  const filters = [`scale=w='${side("iw")}':h='${side("ih")}'`, "format=yuv420p"];
  return [
    ...["-map", "0:V:0", "-vf", filters.join(","), "-frames:v", String(limits.maxFrames)],
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23"],
    ...(withAudio ? ["-map", "0:a:0", "-c:a", "aac", "-b:a", "128k"] : ["-an"]),
    ...["-threads", String(limits.threads), "-movflags", "+faststart", "-f", "mp4"],
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
  const run = await runFfmpeg(tools, limits, args, limits.probeTimeoutMs, MAX_PREVIEW);
  if (run.exitCode !== 0 || run.stdout.length === 0) throw failure(run, "Nothing in the file could be decoded");
  return run.stdout;
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
