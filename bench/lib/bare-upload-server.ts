// The HTTP baseline of the media_upload check: a bare Bun.serve that reads the multipart body of every POST
// (`formData()`, then the `file` part's bytes, as Warren's route does) and answers the attachment JSON
// Warren returned for one upload. No processing: what receiving the upload alone costs over loopback.
//   BARE_PORT, BARE_BODY_FILE
export {};

const body = await Bun.file(process.env.BARE_BODY_FILE!).bytes();
const headers = { "content-type": "application/json; charset=utf-8" };

const server = Bun.serve({
  port: Number(process.env.BARE_PORT),
  hostname: "127.0.0.1",
  maxRequestBodySize: 128 * 1024 * 1024,
  async fetch(req) {
    if (req.method === "POST") {
      const file = (await req.formData()).get("file");
      if (!(file instanceof Blob) || (await file.arrayBuffer()).byteLength === 0) return new Response("no file", { status: 422 });
    }
    return new Response(body, { headers });
  },
});
process.on("SIGTERM", () => {
  server.stop(true);
  process.exit(0);
});
