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
