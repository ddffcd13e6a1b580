// Media uploads (POST /api/v2/media), two checks run by `npm run bench` after the request-rate scenarios and
// the timed checks, each on its own fresh Warren (a child process, rate limits off, temporary data directory):
//
//   media_upload         a 2-megapixel JPEG uploaded by a few concurrent clients: uploads/s and p50/p99 latency
//                        of Warren, against two baselines measured in the same run:
//                          - in-process processing: processStill, the sharp work the endpoint does (header check,
//                            decode + resize to at most 3840×2160 + JPEG, 640×360 preview, blurhash, colours) and
//                            its fsync'd file writes, called directly in the bench process by as many concurrent
//                            callers: no HTTP, multipart, token or record. The most the endpoint could reach, so
//                            Warren ÷ this is the share of the processing throughput that survives the endpoint.
//                          - a bare Bun.serve (bench/lib/bare-upload-server.ts) that reads the same multipart body
//                            and answers Warren's JSON: what receiving the upload alone costs.
//   media_upload_memory  8 clients upload the same JPEG for --duration seconds; the server's RSS from
//                        /proc/<pid>/status before (idle, users made), at its peak (VmHWM, and the highest sample
//                        every 20 ms) and 1 s and 5 s after the load stopped.
//
// Uploads are sent with fetch (a closed loop per client, the multipart body built once): at tens of uploads per
// second the client is not what limits, unlike the raw-socket generator needed for the 100k requests/s scenarios.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { loadConfig } from "../../src/config.ts";
import { processStill } from "../../src/domain/media/files.ts";
import { newId } from "../../src/lib/ids.ts";
import { BenchClient } from "../lib/client.ts";
import { captureOutput, freePort, stop, waitForHttp } from "../lib/process.ts";
import { startWarren, type ChildServer } from "../lib/servers.ts";
import { summarise, type Measurement } from "../lib/stats.ts";

export interface MediaCheckOptions {
  durationMs: number;
  warmupMs: number;
  rounds: number;
}

export interface MediaReport {
  name: string;
  /** What `npm run bench` prints after its table. */
  lines: string[];
  /** Failed or unexpected answers: listed under "problems", the run exits 1. */
  problems: string[];
  /** Kept in .bench/<timestamp>.json. */
  figures: Record<string, unknown>;
}

/** A check that drives its own load and reports its own figures (see bench/run.ts). */
export interface MediaCheck {
  name: string;
  description: string;
  run(options: MediaCheckOptions): Promise<MediaReport>;
}

const WIDTH = 1732;
const HEIGHT = 1155;
const UPLOAD_CLIENTS = 4;
const MEMORY_CLIENTS = 8;

let imageMade: Promise<Buffer> | null = null;

/**
 * The upload: 1732×1155 (2.0 MP), JPEG quality 90, made once per run with sharp from gradients, rings and
 * per-channel noise (a deterministic xorshift), so that it is neither trivially compressible nor flat.
 */
export function benchImage(): Promise<Buffer> {
  return (imageMade ??= (() => {
    const raw = Buffer.alloc(WIDTH * HEIGHT * 3);
    let state = 0x2545f491;
    const noise = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return ((state >>> 0) % 49) - 24;
    };
    const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
    for (let y = 0, i = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++, i += 3) {
        const ring = 70 * Math.sin(Math.hypot(x - WIDTH * 0.62, y - HEIGHT * 0.38) / 11);
        raw[i] = clamp((255 * x) / WIDTH + noise());
        raw[i + 1] = clamp((255 * y) / HEIGHT + ring * 0.5 + noise());
        raw[i + 2] = clamp(128 + ring + noise());
      }
    }
    return sharp(raw, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  })());
}

interface Multipart {
  contentType: string;
  body: Uint8Array;
  fileBytes: number;
}

async function multipart(): Promise<Multipart> {
  const jpeg = await benchImage();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "bench.jpg");
  const request = new Request("http://127.0.0.1/", { method: "POST", body: form });
  return { contentType: request.headers.get("content-type")!, body: await request.bytes(), fileBytes: jpeg.byteLength };
}

/** `clients` concurrent loops, each starting its next call as soon as the previous one ended, for `durationMs`. */
async function closedLoop(clients: number, durationMs: number, once: (client: number) => Promise<number>): Promise<Measurement> {
  const latencies: number[][] = Array.from({ length: clients }, () => []);
  const unexpected: Record<string, number> = {};
  let errors = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    latencies.map(async (list, client) => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        try {
          const status = await once(client);
          if (status === 200) list.push(performance.now() - sent);
          else unexpected[status] = (unexpected[status] ?? 0) + 1;
        } catch {
          errors++;
          await Bun.sleep(10);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return summarise(latencies.map((l) => Float64Array.from(l)), errors, seconds, unexpected);
}

function uploader(url: string, tokens: string[], body: Multipart) {
  return async (client: number) => {
    const res = await fetch(`${url}/api/v2/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${tokens[client % tokens.length]}`, "content-type": body.contentType },
      body: body.body,
    });
    await res.arrayBuffer();
    return res.status;
  };
}

async function uploaders(client: BenchClient, count: number): Promise<string[]> {
  const tokens: string[] = [];
  // One at a time: each is a CLI run on the server's data directory. The token's scopes include `write`, so write:media.
  for (let i = 0; i < count; i++) tokens.push((await client.user(`uploader${i}`)).token);
  return tokens;
}

async function startUploadBare(answer: Uint8Array): Promise<ChildServer> {
  const dir = mkdtempSync(join(tmpdir(), "warren-bench-bare-upload-"));
  const bodyFile = join(dir, "body");
  await Bun.write(bodyFile, answer);
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "../lib/bare-upload-server.ts")], {
    env: { ...process.env, BARE_PORT: String(port), BARE_BODY_FILE: bodyFile },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const output = captureOutput(proc);
  const stopIt = async () => {
    await stop(proc);
    rmSync(dir, { recursive: true, force: true });
  };
  await waitForHttp(url, proc, output, 200).catch(async (error) => {
    await stopIt();
    throw error;
  });
  return { url, stop: stopIt };
}

const num = (n: number, digits = 0) => n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const best = (runs: Measurement[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));

function problemsOf(check: string, side: string, m: Measurement): string[] {
  const out = m.errors ? [`${check}/${side}: ${m.errors} failed uploads`] : [];
  for (const [status, count] of Object.entries(m.unexpected)) out.push(`${check}/${side}: ${count} answers with status ${status}`);
  if (m.requests === 0) out.push(`${check}/${side}: no upload completed`);
  return out;
}

export const mediaUpload: MediaCheck = {
  name: "media_upload",
  description: `POST /api/v2/media, a 2 MP JPEG, ${UPLOAD_CLIENTS} clients; baseline: the same processing in-process`,
  async run({ durationMs, warmupMs, rounds }) {
    const body = await multipart();
    const warren = await startWarren();
    const dataDir = mkdtempSync(join(tmpdir(), "warren-bench-processing-"));
    let bare: ChildServer | null = null;
    try {
      const tokens = await uploaders(new BenchClient(warren), UPLOAD_CLIENTS);
      const upload = uploader(warren.url, tokens, body);
      // One upload first: it must be a processed image, and its answer is what the bare handler sends.
      const first = await fetch(`${warren.url}/api/v2/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${tokens[0]}`, "content-type": body.contentType },
        body: body.body,
      });
      const answer = await first.bytes();
      const attachment = JSON.parse(new TextDecoder().decode(answer)) as { type?: string; meta?: { original?: { width?: number } } };
      if (first.status !== 200 || attachment.type !== "image" || attachment.meta?.original?.width !== WIDTH) {
        throw new Error(`POST /api/v2/media answered ${first.status}: ${new TextDecoder().decode(answer)}`);
      }
      bare = await startUploadBare(answer);
      const bareUpload = uploader(bare.url, tokens, body);

      const config = loadConfig({ WARREN_DATA_DIR: dataDir });
      const jpeg = new Uint8Array(await benchImage());
      const processInProcess = async () => {
        await processStill(config, newId(), jpeg);
        return 200;
      };

      const sides = [
        { side: "warren", label: "Warren POST /api/v2/media", once: upload, runs: [] as Measurement[] },
        { side: "processing", label: "in-process processStill (baseline)", once: processInProcess, runs: [] as Measurement[] },
        { side: "bare", label: "bare Bun.serve, multipart read, fixed JSON", once: bareUpload, runs: [] as Measurement[] },
      ];
      console.log(`media_upload: ${rounds} round(s) of warren, in-process processing, bare multipart handler…`);
      for (let round = 0; round < rounds; round++) {
        for (const s of sides) {
          if (warmupMs > 0) await closedLoop(UPLOAD_CLIENTS, warmupMs, s.once);
          s.runs.push(await closedLoop(UPLOAD_CLIENTS, durationMs, s.once));
        }
      }
      const [w, p, b] = sides.map((s) => best(s.runs)) as [Measurement, Measurement, Measurement];
      const header = ["media_upload", "uploads/s", "p50 ms", "p99 ms", "÷ in-process"];
      const rows = sides.map((s, i) => {
        const m = [w, p, b][i]!;
        return [s.label, num(m.rps, 1), num(m.p50, 1), num(m.p99, 1), num(m.rps / p.rps, 2)];
      });
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
      const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
      const lines = [
        `media_upload: ${WIDTH}×${HEIGHT} JPEG (${num(body.fileBytes / 1024)} KiB, multipart ${num(body.body.byteLength / 1024)} KiB), ` +
          `${UPLOAD_CLIENTS} concurrent clients (fetch), best of ${rounds} run(s) of ${durationMs / 1000} s after ${warmupMs / 1000} s warm-up each`,
        format(header),
        widths.map((wd) => "-".repeat(wd)).join("  "),
        ...rows.map(format),
        `ratio warren / in-process processing: ${num(w.rps / p.rps, 2)} (baseline: the same sharp work and file writes without ` +
          `HTTP, multipart, token or record, i.e. the most the endpoint could reach)`,
        `ratio warren / bare multipart handler: ${num(w.rps / b.rps, 3)} (what receiving the upload alone allows)`,
      ];
      return {
        name: "media_upload",
        lines,
        problems: sides.flatMap((s, i) => problemsOf("media_upload", s.side, [w, p, b][i]!)),
        figures: {
          image: { width: WIDTH, height: HEIGHT, bytes: body.fileBytes, multipartBytes: body.body.byteLength },
          clients: UPLOAD_CLIENTS,
          warren: w,
          processing: p,
          bare: b,
          ratioToProcessing: w.rps / p.rps,
          ratioToBare: w.rps / b.rps,
        },
      };
    } finally {
      await bare?.stop();
      await warren.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

interface ProcMemory {
  rssMb: number;
  anonMb: number;
  hwmMb: number;
}

function procMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) / 1024;
  return { rssMb: mb("VmRSS"), anonMb: mb("RssAnon"), hwmMb: mb("VmHWM") };
}

export const mediaUploadMemory: MediaCheck = {
  name: "media_upload_memory",
  description: `the server's RSS while ${MEMORY_CLIENTS} clients upload a 2 MP JPEG to POST /api/v2/media`,
  async run({ durationMs }) {
    const body = await multipart();
    const warren = await startWarren();
    try {
      const tokens = await uploaders(new BenchClient(warren), MEMORY_CLIENTS);
      console.log(`media_upload_memory: ${MEMORY_CLIENTS} clients for ${durationMs / 1000} s, then 5 s quiet…`);
      await Bun.sleep(1_000);
      const before = procMemory(warren.pid);
      let sampledPeak = before.rssMb;
      const sampler = setInterval(() => {
        sampledPeak = Math.max(sampledPeak, procMemory(warren.pid).rssMb);
      }, 20);
      let load: Measurement;
      let atEnd: ProcMemory;
      try {
        load = await closedLoop(MEMORY_CLIENTS, durationMs, uploader(warren.url, tokens, body));
        atEnd = procMemory(warren.pid);
      } finally {
        clearInterval(sampler);
      }
      await Bun.sleep(1_000);
      const after1 = procMemory(warren.pid);
      await Bun.sleep(4_000);
      const after5 = procMemory(warren.pid);
      const mem = (m: ProcMemory) => `${num(m.rssMb)} MB RSS (${num(m.anonMb)} MB anonymous)`;
      const lines = [
        `media_upload_memory: ${MEMORY_CLIENTS} clients uploading a ${WIDTH}×${HEIGHT} JPEG (${num(body.fileBytes / 1024)} KiB) for ` +
          `${durationMs / 1000} s: ${load.requests} uploads, ${num(load.rps, 1)}/s, p50 ${num(load.p50)} ms, p99 ${num(load.p99)} ms`,
        `  server RSS before (idle, users made): ${mem(before)}; VmHWM so far ${num(before.hwmMb)} MB`,
        `  peak during: ${num(atEnd.hwmMb)} MB (VmHWM); highest 20 ms sample ${num(sampledPeak)} MB; at the end of the load ${mem(atEnd)}`,
        `  after 1 s: ${mem(after1)}; after 5 s: ${mem(after5)}`,
      ];
      return {
        name: "media_upload_memory",
        lines,
        problems: problemsOf("media_upload_memory", "warren", load),
        figures: { clients: MEMORY_CLIENTS, load, before, peakHwmMb: atEnd.hwmMb, sampledPeakMb: sampledPeak, atEnd, after1, after5 },
      };
    } finally {
      await warren.stop();
    }
  },
};

export const MEDIA_CHECKS: MediaCheck[] = [mediaUpload, mediaUploadMemory];
