// GET /api/v1/accounts/verify_credentials with a valid user token: token lookup, scope check, account
// presentation. The cheapest authenticated read, so it measures the per-request floor of the stack.
import type { Scenario } from "./types.ts";

export const verifyCredentials: Scenario = {
  name: "verify_credentials",
  description: "GET /api/v1/accounts/verify_credentials, user token",
  async prepare(client) {
    const user = await client.user("bench");
    return {
      method: "GET",
      path: "/api/v1/accounts/verify_credentials",
      headers: { authorization: `Bearer ${user.token}` },
    };
  },
};

/** The same request with Mastodon's rate limits on, raised so that the load is counted but never refused. */
export const verifyCredentialsRateLimited: Scenario = {
  ...verifyCredentials,
  name: "verify_credentials_rate_limited",
  description: "GET /api/v1/accounts/verify_credentials, user token, rate limits on (x1,000,000)",
  env: { WARREN_RATE_LIMITS: "on", WARREN_RATE_LIMIT_FACTOR: "1000000" },
  variantOf: "verify_credentials",
};
