// A real store on a temporary directory for one test file (closed and removed after it): for unit tests of the
// domain, the reactions and the federation conversions that read or write records, without an app.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db.ts";
import type { Store } from "../../src/store/db.ts";

export function tempStore(name = "unit"): Store {
  const dir = mkdtempSync(join(tmpdir(), `warren-${name}-`));
  const store = openStore(dir);
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}
