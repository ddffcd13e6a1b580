// The instance thumbnail's BlurHash is written down (domain/instance/artwork.ts), so that the first instance
// answer after a start draws nothing: it must be what the thumbnail really gives.
import { expect, test } from "bun:test";
import { drawThumbnailBlurhash, THUMBNAIL_BLURHASH } from "../../src/domain/instance/artwork.ts";

test("the thumbnail's written-down BlurHash is the one drawn from it", async () => {
  expect(await drawThumbnailBlurhash()).toBe(THUMBNAIL_BLURHASH);
});
