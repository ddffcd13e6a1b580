// Route hooks that decide from the request's head alone (the token check of the auth macros, the session check
// of a settings form, http/auth/settings-page.ts) are marked
// here, so that the body parser (params.ts) runs them before it reads a byte: a request that will be
// refused is refused before its body is read, and its connection is closed (errors.ts), so the client is
// not made to send the rest. Elysia itself parses the body before any transform or beforeHandle hook.
type Hook = (context: any) => unknown;

const marked = new WeakSet<Hook>();

/** Marks a hook (it must only read the request's head) to run before the body is read too. */
export function beforeBody<H extends Hook>(hook: H): H {
  marked.add(hook);
  return hook;
}

/** The marked hooks among a route's transform hooks, in their order. */
export function beforeBodyHooks(transforms: unknown): Hook[] {
  if (!Array.isArray(transforms)) return [];
  return transforms.map((entry) => (typeof entry === "function" ? entry : entry?.fn)).filter((fn): fn is Hook => marked.has(fn));
}

/**
 * Thrown by a marked hook to refuse with a page rather than a JSON error (a web form's redirect to sign in):
 * the error handler (errors.ts) answers `response` as it is, closing the connection if the body is unread.
 */
export class RefusedBeforeBody extends Error {
  constructor(readonly response: Response) {
    super(`refused before the body: ${response.status}`);
  }
}
