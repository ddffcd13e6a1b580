// Statuses: POST /api/v1/statuses (one durable write with its indexes, formatting with a mention, a hashtag
// and a link) and GET /api/v1/statuses/:id (synchronous reads and presentation of a status with a mention).
import type { Scenario } from "./types.ts";

export const postStatus: Scenario = {
  name: "post_status",
  description: "POST /api/v1/statuses (mention, hashtag, link), user token",
  async prepare(client) {
    const user = await client.user("poster");
    await client.user("friend");
    return {
      method: "POST",
      path: "/api/v1/statuses",
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "Status {{n}} for @friend about #benchmarks, see https://example.invalid/page", visibility: "public" }),
    };
  },
};

export const getStatus: Scenario = {
  name: "get_status",
  description: "GET /api/v1/statuses/:id, user token",
  async prepare(client) {
    const user = await client.user("reader");
    await client.user("named");
    const status = await client.api<{ id: string }>("/api/v1/statuses", {
      token: user.token,
      json: { status: "Hello @named, this is #warren: https://example.invalid/a/long/enough/path" },
    });
    return { method: "GET", path: `/api/v1/statuses/${status.id}`, headers: { authorization: `Bearer ${user.token}` } };
  },
};
