// Warren's version, from package.json (bundled into the single executable), and the string reported to
// clients: Mastodon's form, so that clients' feature detection (which parses the leading "4.x.y") works.
import packageJson from "../../package.json" with { type: "json" };

/** Warren's own version (package.json). */
export const WARREN_VERSION: string = packageJson.version;

/** The Mastodon version whose API Warren follows: the prefix clients parse. */
export const MASTODON_COMPATIBLE_VERSION = "4.6.0";

/** `/api/v1/instance` and `/api/v2/instance`'s `version`, and what `warren --version` prints. */
export const REPORTED_VERSION = `${MASTODON_COMPATIBLE_VERSION} (compatible; Warren ${WARREN_VERSION})`;
