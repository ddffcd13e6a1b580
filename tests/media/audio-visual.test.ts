// Video, gifv and audio processing against the real ffmpeg/ffprobe of the npm packages. Inputs are made by
// ffmpeg itself (lavfi testsrc and sine), tiny so the whole file runs in about a second; the bad inputs must
// fail with UnsupportedMedia, never hang or crash.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { processAudioVisual, UnsupportedMedia, type AvLimits } from "../../src/media/audio-visual.ts";
import { FFMPEG_MISSING, findFfmpeg, locateFfmpeg, runTool, type FfmpegTools } from "../../src/media/ffmpeg.ts";

const limits: AvLimits = {
  maxPixels: 3840 * 2160,
  maxFrameRate: 120,
  maxFrames: 36_000,
  maxDurationSeconds: 3600,
  maxTranscodeMs: 20_000,
  probeTimeoutMs: 20_000,
  threads: 1,
};
let tools: FfmpegTools;
let dir: string;
let work = 0;

async function ffmpeg(...args: string[]) {
  const run = await runTool(tools.ffmpeg, ["-nostdin", "-hide_banner", "-loglevel", "error", ...args], 20_000);
  if (run.exitCode !== 0) throw new Error(`ffmpeg ${args.join(" ")}: ${run.stderr}`);
}

async function ffprobe(path: string): Promise<{ format: { tags?: Record<string, string> }; streams: Record<string, unknown>[] }> {
  const run = await runTool(tools.ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path], 20_000, 1 << 20);
  return JSON.parse(run.stdout.toString("utf8"));
}

const at = (name: string) => join(dir, name);
const lavfi = (source: string) => ["-f", "lavfi", "-i", source];

/** A fresh work directory for each run, as the caller gives one. */
async function processFile(name: string, options: Partial<AvLimits> = {}, isGif?: boolean) {
  const workDir = await mkdtemp(join(dir, `work-${work++}-`));
  return processAudioVisual(tools, at(name), workDir, { ...limits, ...options }, isGif);
}

async function rejects(name: string, options: Partial<AvLimits> = {}, isGif?: boolean): Promise<string> {
  const error = await processFile(name, options, isGif).catch((e: Error) => e);
  expect(error).toBeInstanceOf(UnsupportedMedia);
  return (error as Error).message;
}

beforeAll(async () => {
  const found = findFfmpeg();
  if (!found) throw new Error(FFMPEG_MISSING);
  tools = found;
  dir = await mkdtemp(join(tmpdir(), "warren-av-"));
  const tone = lavfi("sine=frequency=440:duration=1.5");
  await Promise.all([
    // Video with sound, in a container other than the output's, with metadata that must not survive.
    ffmpeg(...lavfi("testsrc=size=160x120:rate=10:duration=1.5"), ...tone, "-c:v", "libvpx", "-c:a", "libopus",
      "-metadata", "title=secret", "-y", at("sound.webm")),
    // Silent, odd-sized (the output needs even sides).
    ffmpeg(...lavfi("testsrc=size=75x51:rate=10:duration=1"), "-c:v", "ffv1", "-y", at("silent.mkv")),
    // H.264/AAC with its index at the end (no faststart), for truncation.
    ffmpeg(...lavfi("testsrc=size=160x120:rate=10:duration=2"), ...tone, "-c:v", "libx264", "-pix_fmt", "yuv420p",
      "-c:a", "aac", "-y", at("plain.mp4")),
    // Index first: half of it still holds whole frames (of 2 s, the first frame is cut and nothing decodes).
    ffmpeg(...lavfi("testsrc=size=160x120:rate=10:duration=4"), "-c:v", "libx264", "-pix_fmt", "yuv420p",
      "-movflags", "+faststart", "-y", at("faststart.mp4")),
    ffmpeg(...lavfi("testsrc=size=64x48:rate=60:duration=1"), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-y", at("fast.mp4")),
    ffmpeg(...lavfi("testsrc=size=320x240:rate=5:duration=1"), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-y", at("big.mp4")),
    ffmpeg(...lavfi("testsrc=size=64x48:rate=10:duration=1"), "-f", "gif", "-y", at("anim.gif")),
    // Audio with cover art and a title: both must be dropped.
    ffmpeg(...tone, ...lavfi("testsrc=size=64x48:duration=0.1"), "-map", "0", "-map", "1", "-frames:v", "1", "-c:v", "mjpeg",
      "-disposition:v", "attached_pic", "-c:a", "libmp3lame", "-metadata", "title=secret", "-y", at("tone.mp3")),
  ]);

  // A phone's portrait video: stored landscape with a rotation (this ffmpeg writes the tag on stream copy only).
  await ffmpeg("-i", at("big.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", "-y", at("portrait.mp4"));
  const plain = await Bun.file(at("plain.mp4")).bytes();
  const faststart = await Bun.file(at("faststart.mp4")).bytes();
  let seed = 42;
  const noise = Uint8Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff);
  const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${at("sound.webm")}\n#EXT-X-ENDLIST\n`;
  await Promise.all([
    writeFile(at("empty.mp4"), ""),
    writeFile(at("noise.mp4"), noise),
    writeFile(at("image.mp4"), await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } }).png().toBuffer()),
    writeFile(at("text.mp4"), "This is not a video, just some text.\n".repeat(50)),
    writeFile(at("half.mp4"), plain.subarray(0, plain.length / 2)),
    writeFile(at("half-faststart.mp4"), faststart.subarray(0, faststart.length / 2)),
    writeFile(at("list.m3u8"), playlist),
    writeFile(at("list.mp4"), playlist),
    writeFile(at("concat.mp4"), `ffconcat version 1.0\nfile '${at("sound.webm")}'\n`),
  ]);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function expectJpeg(frame: Buffer | null, width: number, height: number) {
  expect(frame).not.toBeNull();
  const info = await sharp(frame!).metadata();
  expect([info.format, info.width, info.height]).toEqual(["jpeg", width, height]);
}

describe("finding the tools", () => {
  test("the npm packages' binaries, cached", () => {
    const found = findFfmpeg();
    expect(found?.ffmpeg).toContain("@ffmpeg-installer");
    expect(found?.ffprobe).toContain("@ffprobe-installer");
    expect(findFfmpeg()).toBe(found!);
  });

  test("the environment wins; a wrong path is missing, not replaced by another binary", () => {
    expect(locateFfmpeg({ WARREN_FFMPEG_PATH: tools.ffmpeg, WARREN_FFPROBE_PATH: tools.ffprobe })).toEqual(tools);
    expect(locateFfmpeg({ WARREN_FFMPEG_PATH: join(dir, "nope") })).toBeNull();
    expect(locateFfmpeg({ WARREN_FFPROBE_PATH: at("anim.gif") })).toBeNull(); // not executable
    expect(FFMPEG_MISSING).toContain("WARREN_FFMPEG_PATH");
  });
});

describe("running a tool", () => {
  test("killed at the time limit, stderr kept to its last few KB", async () => {
    const endless = ["-nostdin", "-loglevel", "debug", "-f", "lavfi", "-i", "testsrc", "-f", "null", "-"];
    const run = await runTool(tools.ffmpeg, endless, 300);
    expect(run).toMatchObject({ exitCode: null, timedOut: true });
    expect(run.stderr.length).toBeGreaterThan(1000);
    expect(run.stderr.length).toBeLessThanOrEqual(4096);
  });

  test("killed when it writes more than allowed to stdout", async () => {
    const run = await runTool(tools.ffmpeg, ["-nostdin", "-f", "lavfi", "-i", "testsrc", "-f", "rawvideo", "pipe:1"], 10_000, 1000);
    expect(run).toMatchObject({ exitCode: null, timedOut: false });
    expect(run.stdout.length).toBe(0);
  });
});

describe("processing", () => {
  test("video with sound → video: H.264/AAC MP4, metadata stripped, Mastodon's meta", async () => {
    const result = await processFile("sound.webm");
    expect(result.type).toBe("video");
    expect(result.file).toMatchObject({ extension: "mp4", contentType: "video/mp4" });
    expect(result.file.size).toBe(Bun.file(result.file.path).size);
    const { meta } = result;
    expect(meta).toEqual({
      length: expect.stringMatching(/^0:00:01\.5\d$/), // AAC adds a few milliseconds of priming
      duration: expect.any(Number),
      fps: 10,
      size: "160x120",
      width: 160,
      height: 120,
      aspect: 160 / 120,
      audio_encode: "aac (LC) (mp4a / 0x6134706D)",
      audio_bitrate: "48000 Hz", // opus decodes at 48 kHz
      audio_channels: "mono",
      original: { width: 160, height: 120, size: "160x120", aspect: 160 / 120, frame_rate: "10/1", duration: expect.any(Number), bitrate: expect.any(Number) },
    });
    expect(meta.duration).toBeCloseTo(1.5, 1);
    expect((meta.original as { duration: number }).duration).toBeCloseTo(1.5, 1);

    const probe = await ffprobe(result.file.path);
    expect(probe.format.tags?.title).toBeUndefined();
    expect(probe.streams.map((s) => [s.codec_name, s.pix_fmt ?? null])).toEqual([["h264", "yuv420p"], ["aac", null]]);
    await expectJpeg(result.previewFrame, 160, 120);
  });

  test("silent video → gifv without audio keys, odd size made even", async () => {
    const result = await processFile("silent.mkv");
    expect(result.type).toBe("gifv");
    expect(result.meta).toEqual({
      length: "0:00:01.00",
      duration: 1,
      fps: 10,
      size: "74x50",
      width: 74,
      height: 50,
      aspect: 74 / 50,
      original: { width: 74, height: 50, size: "74x50", aspect: 74 / 50, frame_rate: "10/1", duration: 1, bitrate: expect.any(Number) },
    });
    await expectJpeg(result.previewFrame, 74, 50);
  });

  test("animated GIF → gifv MP4", async () => {
    const result = await processFile("anim.gif", {}, true);
    expect(result.type).toBe("gifv");
    expect(result.file.contentType).toBe("video/mp4");
    expect(result.meta).toMatchObject({ size: "64x48", fps: 10, duration: 1 });
    expect((await ffprobe(result.file.path)).streams.map((s) => s.codec_name)).toEqual(["h264"]);
  });

  test("a file that is not a GIF is refused when the caller says it is one", async () => {
    expect(await rejects("silent.mkv", {}, true)).toBe("The file is not an animated GIF");
  });

  test("audio → MP3 without cover art or tags, Mastodon's audio meta", async () => {
    const result = await processFile("tone.mp3");
    expect(result.type).toBe("audio");
    expect(result.file).toMatchObject({ extension: "mp3", contentType: "audio/mpeg" });
    expect(result.previewFrame).toBeNull();
    expect(result.meta).toEqual({
      length: expect.stringMatching(/^0:00:01\.\d\d$/),
      duration: expect.any(Number),
      audio_encode: "mp3",
      audio_bitrate: "44100 Hz",
      audio_channels: "mono",
      original: { duration: expect.any(Number), bitrate: expect.any(Number) },
    });
    const probe = await ffprobe(result.file.path);
    expect(probe.streams.map((s) => s.codec_type)).toEqual(["audio"]);
    expect(probe.format.tags?.title).toBeUndefined();
  });

  test("past Mastodon's limits: refused before any transcode, in Mastodon's words", async () => {
    expect(await rejects("fast.mp4", { maxFrameRate: 30 })).toBe("60fps videos are not supported");
    expect(await rejects("big.mp4", { maxPixels: 160 * 120 })).toBe("320x240 videos are not supported");
    expect(await rejects("sound.webm", { maxFrames: 10 })).toBe("Videos of more than 10 frames are not supported (this one has 15)");
  });

  test("odd sides become even; a rotated video is turned upright", async () => {
    const odd = await processFile("silent.mkv");
    expect(odd.meta).toMatchObject({ width: 74, height: 50 });
    const result = await processFile("portrait.mp4");
    expect(result.meta).toMatchObject({ size: "240x320", aspect: 0.75 });
    await expectJpeg(result.previewFrame, 240, 320);
    const probe = await ffprobe(result.file.path);
    expect(JSON.stringify(probe.streams[0])).not.toContain("rotation");
  });

  test("longer than the limit: refused", async () => {
    expect(await rejects("sound.webm", { maxDurationSeconds: 1 })).toBe("The file is longer than 1 seconds");
  });

  test("a run over the time limit is killed and refused", async () => {
    expect(await rejects("sound.webm", { maxTranscodeMs: 1 })).toBe("Processing the file took too long");
  });
});

describe("bad input", () => {
  test.each(["empty.mp4", "noise.mp4", "image.mp4", "text.mp4", "half.mp4"])("%s is refused", async (name) => {
    expect(await rejects(name)).toBe("The file is not a video or audio file we can read");
  });

  // A fake ffprobe prints what a hostile container could make it report.
  test.each([
    ["not JSON", "The file is not a video or audio file we can read"],
    [{ format: [], streams: "video" }, "The file is not a video or audio file we can read"],
    [{ format: { format_name: "mov" }, streams: [] }, "The file has no video or audio stream"],
    [{ format: { format_name: "mov" }, streams: [{ codec_type: "video", disposition: { attached_pic: 1 } }] }, "The file has no video or audio stream"],
    [{ format: { format_name: "mov" }, streams: [{ codec_type: "video", width: "wide", height: 48 }] }, "The video's dimensions are not supported"],
    [{ format: { format_name: "mov" }, streams: [{ codec_type: "video", width: 0, height: 0 }] }, "The video's dimensions are not supported"],
    [{ format: { format_name: "mov" }, streams: [{ codec_type: "video", width: 64.5, height: 48 }] }, "The video's dimensions are not supported"],
    [{ format: { format_name: "mov" }, streams: [{ codec_type: "video", width: 100_000, height: 2 }] }, "The video's dimensions are not supported"],
    [{ format: { format_name: "mov", duration: "1e999" }, streams: [{ codec_type: "audio" }] }, "The file is longer than 3600 seconds"],
    [{ format: { format_name: "mov", duration: "NaN" }, streams: [{ codec_type: "audio", duration: 7200 }] }, "The file is longer than 3600 seconds"],
  ])("ffprobe reporting %j is refused", async (report, message) => {
    const name = `fake-${work++}`;
    await writeFile(at(`${name}.json`), typeof report === "string" ? report : JSON.stringify(report));
    await writeFile(at(name), `#!/bin/sh\ncat '${at(`${name}.json`)}'\n`);
    await chmod(at(name), 0o755);
    const error = await processAudioVisual({ ...tools, ffprobe: at(name) }, at("sound.webm"), dir, limits).catch((e: Error) => e);
    expect(error).toBeInstanceOf(UnsupportedMedia);
    expect((error as Error).message).toBe(message);
  });

  test("a playlist or concat list that names another local file is never opened", async () => {
    for (const name of ["list.m3u8", "list.mp4", "concat.mp4"]) {
      expect(await rejects(name)).toBe("The file is not a video or audio file we can read");
    }
  });

  test("a truncated faststart MP4 keeps what is there or is refused cleanly", async () => {
    const result = await processFile("half-faststart.mp4").catch((e: Error) => e);
    if (result instanceof Error) return expect(result).toBeInstanceOf(UnsupportedMedia);
    expect(result.meta.duration).toBeGreaterThan(0);
    expect(result.meta.duration).toBeLessThan(4);
    await expectJpeg(result.previewFrame, 160, 120);
  });
});
