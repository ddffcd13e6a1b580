// The baseline: a bare Bun.serve handler answering every request with the exact bytes, status and
// content-type Warren returned for the scenario. Started as its own process, like Warren.
//   BARE_PORT, BARE_BODY_FILE, BARE_STATUS, BARE_CONTENT_TYPE
export {};

const body = await Bun.file(process.env.BARE_BODY_FILE!).bytes();
const status = Number(process.env.BARE_STATUS ?? 200);
const contentType = process.env.BARE_CONTENT_TYPE ?? "application/json";

const server = Bun.serve({
  port: Number(process.env.BARE_PORT),
  hostname: "127.0.0.1",
  fetch: () => new Response(body, { status, headers: { "content-type": contentType } }),
});
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
