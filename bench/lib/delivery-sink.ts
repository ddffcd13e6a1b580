// A sink for federation deliveries, run as a child process by bench/scenarios/federation-delivery.ts: it plays
// SINK_SERVERS remote servers, one Bun.serve per port on 127.0.0.1 (a distinct origin each, as 500 servers
// are: Fedify groups deliveries by inbox URL and keeps its circuit breaker and signature spec per host), and
// a control server. Every POST to a path ending in `/inbox` on any of them is recorded: its port, when it arrived, whether it
// carries an HTTP signature (draft-cavage `Signature: keyId=…`, or RFC 9421 `Signature-Input` + `Signature`),
// the activity id; requests in flight (arrived, not yet answered) are counted and their peak kept. Each POST
// is answered 202 after `delayMs` (0: at once; more plays a distant or slow server, so the sender's
// concurrency limit becomes visible as requests in flight).
//
// Control (JSON): POST /reset {delayMs, slowEvery, slowMs} (every slowEvery-th server holds slowMs) clears the records; GET /count and GET /stats return them. On start it prints one
// line: {"control": <port>, "ports": [<port>, …]}.

const servers = Number(process.env.SINK_SERVERS ?? "500");

interface Arrival {
  port: number;
  /** `/inbox` for a server's shared inbox; an account's own inbox otherwise. */
  path: string;
  at: number;
  signed: boolean;
  activityId: string | null;
}

let delayMs = 0;
/** Every `slowEvery`-th server (in the order of `ports`) holds its POSTs `slowMs` instead (0: none). */
let slowEvery = 0;
let slowMs = 0;
const slowPorts = new Set<number>();
let arrivals: Arrival[] = [];
let inFlight = 0;
let peak = 0;
/** The first signed delivery, kept whole so the bench can verify its signature after the timed part. */
let sample: { url: string; headers: [string, string][]; body: string } | null = null;
let errors: string[] = [];

const now = () => performance.timeOrigin + performance.now();

function signedRequest(headers: Headers): boolean {
  const signature = headers.get("signature");
  if (!signature) return false;
  return headers.has("signature-input") || /keyId="[^"]+"/.test(signature);
}

async function inbox(request: Request, port: number, path: string): Promise<Response> {
  const at = now();
  inFlight++;
  if (inFlight > peak) peak = inFlight;
  try {
    const body = await request.text();
    let activityId: string | null = null;
    try {
      activityId = (JSON.parse(body) as { id?: string }).id ?? null;
    } catch {
      // a bare POST's body need not be JSON
    }
    const signed = signedRequest(request.headers);
    arrivals.push({ port, path, at, signed, activityId });
    if (signed && !sample) sample = { url: request.url, headers: [...request.headers], body };
    const hold = slowPorts.has(port) ? slowMs : delayMs;
    if (hold > 0) await Bun.sleep(hold);
    return new Response(null, { status: 202 });
  } catch (error) {
    errors.push(String(error));
    return new Response(null, { status: 500 });
  } finally {
    inFlight--;
  }
}

const ports: number[] = [];
for (let i = 0; i < servers; i++) {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request, srv) {
      const url = new URL(request.url);
      if (request.method === "POST" && url.pathname.endsWith("/inbox")) return inbox(request, srv.port!, url.pathname);
      return new Response(null, { status: 404 });
    },
  });
  ports.push(server.port!);
}

const control = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/reset") {
      const options = (await request.json()) as { delayMs?: number; slowEvery?: number; slowMs?: number };
      delayMs = options.delayMs ?? 0;
      slowEvery = options.slowEvery ?? 0;
      slowMs = options.slowMs ?? 0;
      slowPorts.clear();
      if (slowEvery > 0) ports.forEach((port, i) => i % slowEvery === 0 && slowPorts.add(port));
      arrivals = [];
      peak = inFlight;
      sample = null;
      errors = [];
      return Response.json({ ok: true });
    }
    if (url.pathname === "/count") return Response.json({ count: arrivals.length });
    if (url.pathname === "/stats") return Response.json({ arrivals, peak, inFlight, sample, errors });
    return new Response(null, { status: 404 });
  },
});

console.log(JSON.stringify({ control: control.port, ports }));
