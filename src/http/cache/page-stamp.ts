// The stamp of a kept answer (a timeline page, a thread, a page window): the versions of everything its build
// read, with the viewer's first (http/cache/timeline-pages.ts).
import type { Deps } from "../../deps.ts";
import { viewerStamp, type Viewer } from "../../domain/auth/viewer.ts";
import { mirrorStamp, versionsUnchanged, type Stamp } from "../../domain/caches/invalidate.ts";

/**
 * The stamp of a page built for `viewer`: the viewer's versions as they were when its token was checked
 * (a revocation committed since then makes them differ), and the current versions of everything else the
 * build read, taken in the build's own read snapshot.
 */
export function pageStamp(deps: Deps, viewer: Viewer | null, names: Set<string>, until: number): Stamp | undefined {
  const byViewer = viewer ? viewerStamp(viewer) : { names: [], versions: null, seq: Infinity, until: Infinity };
  if (!byViewer) return undefined;
  for (const name of byViewer.names) names.delete(name);
  // Versions are not read: the page is checked against the version log's mirror alone, and rebuilt in the
  // rare case it cannot tell (a page that old).
  const rest = mirrorStamp(deps.store, [...names]);
  // Still the viewer's versions in the build's snapshot (this moves their log position up to it)? Then the
  // page's versions all hold at the build's position.
  if (viewer && !versionsUnchanged(deps.store, byViewer)) return undefined;
  return {
    names: [...byViewer.names, ...rest.names],
    versions: null,
    seq: Math.min(byViewer.seq, rest.seq),
    until: Math.min(until, byViewer.until),
  };
}

/** How many of a stamp's names are the viewer's (they come first). */
export const viewerNameCount = (viewer: Viewer | null) => (viewer ? (viewerStamp(viewer)?.names.length ?? 0) : 0);
