// The single executable, as an operator uses it: copied alone into an empty folder, started there with no
// WARREN_DATA_DIR (so ./data is used), administered with the same CLI words. Builds dist/warren first unless
// it is newer than every source file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import sharp from "sharp";
import { runCommand } from "../helpers/cli.ts";

const root = join(import.meta.dir, "../..");
const binary = join(root, "dist/warren");
const bun = process.execPath;
const requireFromRoot = createRequire(join(root, "package.json"));
const ffmpegPath: string = requireFromRoot("@ffmpeg-installer/ffmpeg").path;
const ffprobePath: string = requireFromRoot("@ffprobe-installer/ffprobe").path;

let dir = "";
let port = 0;
let server: ReturnType<typeof Bun.spawn> | null = null;
let serverLog = "";

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

async function ensureBinary() {
  const inputs = ["src", "scripts", "package-lock.json"].map((p) => newestMtime(join(root, p)));
  if (existsSync(binary) && statSync(binary).mtimeMs > Math.max(...inputs)) return;
  const { stdout, stderr, code } = await runCommand([bun, "scripts/build.ts"], { cwd: root });
  if (code !== 0) throw new Error(`npm run build failed (${code}):\n${stdout}${stderr}`);
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const free = probe.port!;
  probe.stop(true);
  return free;
}

/** The environment an operator would have: nothing of Warren's, in particular no WARREN_DATA_DIR. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("WARREN_") && key !== "NODE_ENV") env[key] = value;
  }
  return { ...env, ...extra };
}

async function drain(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  for await (const chunk of stream) serverLog += decoder.decode(chunk, { stream: true });
}

async function waitForInstance(timeoutMs: number) {
  let last = "no answer";
  const answered = async () => {
    if (server?.exitCode !== null) throw new Error(`warren serve exited with ${server?.exitCode}:\n${serverLog}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/instance`);
      last = `${res.status} ${await res.text()}`;
      return res.status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  await eventually(answered, { timeoutMs, intervalMs: 100 }).catch((error: Error) => {
    if (!error.message.startsWith("timed out")) throw error;
    throw new Error(`GET /api/v2/instance did not answer 200 within ${timeoutMs} ms (last: ${last.slice(0, 200)}):\n${serverLog}`);
  });
}

const cli = (...args: string[]) => runCommand(["./warren", ...args], { cwd: dir, env: cleanEnv() });

/** The password `accounts create` printed. */
const printedPassword = (stdout: string) => /^New password: (\S+)$/m.exec(stdout)![1]!;

/** Registers an app with `scope` on the running binary and asks it for a token by the password grant. */
async function passwordGrant(login: string, password: string, scope: string): Promise<Response> {
  const base = `http://127.0.0.1:${port}`;
  const app = (await (
    await fetch(`${base}/api/v1/apps`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "e2e", redirect_uris: "urn:ietf:wg:oauth:2.0:oob", scopes: scope }),
    })
  ).json()) as { client_id: string; client_secret: string };
  return fetch(`${base}/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({ grant_type: "password", client_id: app.client_id, client_secret: app.client_secret, username: login, password, scope }),
  });
}

beforeAll(
  async () => {
    await ensureBinary();
    dir = mkdtempSync(join(tmpdir(), "warren-binary-"));
    copyFileSync(binary, join(dir, "warren"));
    port = freePort();
    server = Bun.spawn(["./warren", "serve"], {
      cwd: dir,
      // The binary does not carry ffmpeg: an operator points it at one (here, the npm package's).
      env: cleanEnv({ WARREN_PORT: String(port), WARREN_HOST: "127.0.0.1", WARREN_FFMPEG_PATH: ffmpegPath, WARREN_FFPROBE_PATH: ffprobePath }),
      stdout: "pipe",
      stderr: "pipe",
    });
    void drain(server.stdout as ReadableStream<Uint8Array>);
    void drain(server.stderr as ReadableStream<Uint8Array>);
    await waitForInstance(20_000);
  },
  { timeout: 60_000 },
);

afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    // A time limit on the shutdown (then SIGKILL), not a wait for something.
    const exited = await Promise.race([server.exited.then(() => true), Bun.sleep(5_000).then(() => false)]);
    if (!exited) server.kill("SIGKILL");
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the copied binary serves the instance from its own folder", async () => {
  const res = await fetch(`http://127.0.0.1:${port}/api/v2/instance`);
  expect(res.status).toBe(200);
  const instance = (await res.json()) as { configuration: { statuses: { max_characters: number } } };
  expect(instance.configuration.statuses.max_characters).toBe(500);
  expect(existsSync(join(dir, "data", "warren.lmdb"))).toBe(true);
});

test("the binary's CLI creates an account that the running server signs in", async () => {
  const { stdout, stderr, code } = await cli("accounts", "create", "alice", "--email=a@b.c", "--confirmed");
  expect({ code, stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(stdout).toMatch(/^New password: \S{8,}$/m);

  const grant = await passwordGrant("a@b.c", printedPassword(stdout), "read");
  expect(grant.status).toBe(200);
  const { access_token } = (await grant.json()) as { access_token: string };
  const me = await fetch(`http://127.0.0.1:${port}/api/v1/accounts/verify_credentials`, { headers: { authorization: `Bearer ${access_token}` } });
  expect(me.status).toBe(200);
  expect(((await me.json()) as { username: string }).username).toBe("alice");
});

/** A user token with write access, through the binary's CLI and the password grant. */
async function userToken(username: string): Promise<string> {
  const { stdout } = await cli("accounts", "create", username, `--email=${username}@b.c`, "--confirmed");
  const grant = await passwordGrant(`${username}@b.c`, printedPassword(stdout), "read write");
  return ((await grant.json()) as { access_token: string }).access_token;
}

test("the binary processes images with sharp and video with the ffmpeg it is pointed at", async () => {
  const token = await userToken("carol");
  const base = `http://127.0.0.1:${port}`;
  const upload = (file: File) => {
    const body = new FormData();
    body.set("file", file);
    return fetch(`${base}/api/v2/media`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body });
  };
  const png = await sharp({ create: { width: 90, height: 60, channels: 3, background: "#a52" } }).png().toBuffer();
  const image = await upload(new File([png], "a.png", { type: "image/png" }));
  expect(image.status).toBe(200);
  expect(((await image.json()) as { meta: { original: { width: number } } }).meta.original.width).toBe(90);

  const clip = join(dir, "clip.mp4");
  const made = Bun.spawn([ffmpegPath, "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-pix_fmt", "yuv420p", clip]);
  expect(await made.exited).toBe(0);
  const video = await upload(new File([await Bun.file(clip).arrayBuffer()], "clip.mp4", { type: "video/mp4" }));
  expect(video.status).toBe(202);
  const { id } = (await video.json()) as { id: string };
  const processed = async () => (await fetch(`${base}/api/v1/media/${id}`, { headers: { authorization: `Bearer ${token}` } })).status !== 206;
  await eventually(processed, { timeoutMs: 10_000, intervalMs: 50, what: "the video processed" });
  expect((await fetch(`${base}/api/v1/media/${id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
});

test("job workers start inside the binary", () => {
  // The video above was processed by a job on a worker thread, so the workers have started (or failed):
  // pool.ts logs a warning when a worker cannot load its entry point or dies.
  expect(serverLog).toContain("warren listening");
  expect(serverLog).not.toMatch(/replacing job worker|job worker failed/);
});

test("the binary's settings command changes what the running server reports", async () => {
  const { stdout, code } = await cli("settings", "registrations", "open");
  expect(code).toBe(0);
  expect(stdout).toContain("Registrations: open");
  const instance = (await (await fetch(`http://127.0.0.1:${port}/api/v2/instance`)).json()) as {
    registrations: { enabled: boolean; approval_required: boolean };
  };
  expect(instance.registrations).toMatchObject({ enabled: true, approval_required: false });
});

test("the binary's cache recount runs beside the server", async () => {
  const { stdout, stderr, code } = await cli("cache", "recount", "accounts");
  expect(code).toBe(0);
  expect(stdout).toMatch(/^OK, recounted \d+ records \(0 corrected\)\n$/);
  expect(stderr).toContain("Recounting accounts: 100%");
});

test("an unknown command prints usage and exits 64", async () => {
  const { stderr, code } = await cli("frobnicate");
  expect(code).toBe(64);
  expect(stderr).toContain("usage:");
});
