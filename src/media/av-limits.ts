// Mastodon's limits on video, checked on ffprobe's answer before anything is decoded, and the time one
// transcode may take. Past a limit the upload is refused with Mastodon's wording ("4096x2160 videos are not
// supported"); within them, the work is bounded by the budget, proportional to what there is to encode.
import { UnsupportedMedia, type Probe, type Stream } from "./probe.ts";

export interface AvLimits {
  /** Largest frame, width × height (Mastodon's MAX_VIDEO_MATRIX_LIMIT); larger is refused. */
  maxPixels: number;
  /** Highest average frame rate, compared whole as Mastodon does (MAX_VIDEO_FRAME_RATE); higher is refused. */
  maxFrameRate: number;
  /** Most video frames (MAX_VIDEO_FRAMES); more is refused, and the output is cut there whatever the container said. */
  maxFrames: number;
  /** Longer input is refused (Mastodon has no such limit; its size limit makes about the same). */
  maxDurationSeconds: number;
  /** Hard cap of one transcode: ffmpeg is killed past its budget, which is at most this. */
  maxTranscodeMs: number;
  /** Each ffprobe run and the preview frame's ffmpeg run. */
  probeTimeoutMs: number;
  /** ffmpeg threads per run, so that one transcode leaves cores to the others. */
  threads: number;
}

/** Wider or taller than any codec we decode; refused before ffmpeg allocates a frame. */
const MAX_SIDE = 16384;

/** Refuses, with a message for the client, what is past a limit; returns the video stream, if any. */
export function checkLimits(input: Probe, limits: AvLimits, isGif: boolean): Stream | undefined {
  const { video } = input;
  if (isGif && (input.formatName !== "gif" || !video)) throw new UnsupportedMedia("The file is not an animated GIF");
  if (!video && !input.audio) throw new UnsupportedMedia("The file has no video or audio stream");
  const duration = durationOf(input);
  if (duration !== undefined && duration > limits.maxDurationSeconds) {
    throw new UnsupportedMedia(`The file is longer than ${limits.maxDurationSeconds} seconds`);
  }
  if (!video) return undefined;
  checkSize(video);
  const { width = 0, height = 0, frameRate } = video;
  if (width * height > limits.maxPixels) throw new UnsupportedMedia(`${width}x${height} videos are not supported`);
  if (frameRate !== undefined && Math.floor(frameRate) > limits.maxFrameRate) {
    throw new UnsupportedMedia(`${Math.floor(frameRate)}fps videos are not supported`);
  }
  const frames = video.frames ?? (duration !== undefined && frameRate !== undefined ? Math.round(duration * frameRate) : undefined);
  if (frames !== undefined && frames > limits.maxFrames) {
    throw new UnsupportedMedia(`Videos of more than ${limits.maxFrames} frames are not supported (this one has ${frames})`);
  }
  return video;
}

export function checkSize({ width, height }: Stream): void {
  if (!width || !height || width > MAX_SIDE || height > MAX_SIDE) {
    throw new UnsupportedMedia("The video's dimensions are not supported");
  }
}

export function durationOf(input: Probe): number | undefined {
  return input.duration ?? input.video?.duration ?? input.audio?.duration;
}

/** The reference work: a second of 1080p at 30 frames a second. */
const REFERENCE_PIXELS_PER_SECOND = 1920 * 1080 * 30;
/** Start-up, probing the output, a short file on a busy machine. */
const BASE_BUDGET_MS = 20_000;
/** About ten times what libx264 `veryfast` takes on one core of the development machine. */
const MS_PER_REFERENCE_SECOND = 2_000;

/**
 * How long the transcode of `input` may take: proportional to its duration, weighted by its pixels per
 * second when they are above 1080p30 (a 4K video has four times the work of a 1080p one), capped at
 * `maxTranscodeMs`. A file that does not say how long it is gets the cap.
 */
export function transcodeBudgetMs(input: Probe, limits: AvLimits): number {
  const seconds = Math.min(durationOf(input) ?? limits.maxDurationSeconds, limits.maxDurationSeconds);
  const video = input.video;
  const pixelsPerSecond = video ? (video.width ?? 0) * (video.height ?? 0) * Math.min(video.frameRate ?? limits.maxFrameRate, limits.maxFrameRate) : 0;
  const weight = Math.max(1, pixelsPerSecond / REFERENCE_PIXELS_PER_SECOND);
  return Math.round(Math.min(limits.maxTranscodeMs, BASE_BUDGET_MS + seconds * weight * MS_PER_REFERENCE_SECOND));
}
