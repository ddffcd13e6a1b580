// Entry of the build-time smoke binary (see native-smoke-run.ts): exercises every native addon the single
// executable embeds, including sharp, which the server may not import yet. Prints "native smoke ok".
import { open } from "lmdb";
import { isNativeAccelerationEnabled } from "msgpackr";
import sharp from "sharp";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) throw new Error("usage: native-smoke DIR");

const db = open({ path: join(dir, "smoke.lmdb") });
await db.put(["k", 1], { text: "héllo", n: 1 });
const back = db.get(["k", 1]);
if (back?.text !== "héllo") throw new Error(`lmdb round trip failed: ${JSON.stringify(back)}`);
await db.close();

if (!isNativeAccelerationEnabled) throw new Error("msgpackr-extract did not load");

const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: "#3366ff" } }).png().toBuffer();
const meta = await sharp(png).resize(4).metadata();
if (meta.format !== "png" || meta.width !== 8) throw new Error(`sharp round trip failed: ${JSON.stringify(meta)}`);
const resized = await sharp(png).resize(4).webp().toBuffer({ resolveWithObject: true });
if (resized.info.width !== 4 || resized.info.format !== "webp") throw new Error("sharp resize failed");

console.log("native smoke ok");
