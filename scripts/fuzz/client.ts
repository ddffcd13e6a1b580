// A minimal well-behaved client for setting up fixtures and checking invariants.
export interface Api {
  (method: string, path: string, options?: { token?: string; json?: unknown; form?: Record<string, string> }): Promise<{ status: number; body: any }>;
}

export function apiClient(base: string): Api {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    let body: string | undefined;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    }
    const res = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  };
}

/** Calls `api` and fails loudly unless the answer is 200: fixtures must exist for the run to mean anything. */
export async function must(api: Api, ...args: Parameters<Api>): Promise<any> {
  const res = await api(...args);
  if (res.status !== 200) throw new Error(`fixture ${args[0]} ${args[1]} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
