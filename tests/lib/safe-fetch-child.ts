// Run by safe-fetch.test.ts in a child process whose NODE_EXTRA_CA_CERTS trusts the pinned.test fixture
// certificate (Bun reads it only at start-up): fetches https://NAME:PORT/ with NAME resolved to 127.0.0.1.
import { safeFetch } from "../../src/lib/safe-fetch.ts";

const [port, name] = process.argv.slice(2);
try {
  const response = await safeFetch(new URL(`https://${name}:${port}/`), {
    allowPrivateAddresses: true,
    maxBytes: 1000,
    maxRedirects: 0,
    timeoutMs: 3000,
    resolve: async () => ["127.0.0.1"],
  });
  console.log(`${response.status} ${new TextDecoder().decode(response.body)}`);
} catch (error) {
  console.log(`refused: ${(error as { code?: string }).code}`);
}
