// Configuration from the environment: defaults for the embedded set-up, and invalid values stop start-up
// with one line naming the variable.
import { describe, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { loadConfig } from "../src/config.ts";

describe("defaults", () => {
  test("an empty environment is a working embedded instance", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(resolve("./data"));
    expect(config.url).toBe("http://localhost:3000");
    expect(config.domain).toBe("localhost:3000");
    expect(config.registrations).toBe("approval");
    expect(config.passwordGrant).toBe(true);
    expect(config.requireEmailConfirmation).toBe(false);
    expect(config.jobWorkers).toBe(2);
    expect(config.processes).toBe(1);
    expect(config.smtp).toBeNull();
  });

  test("WARREN_PROCESSES is a count up to 14, or auto for one per core (at most 14)", () => {
    expect(loadConfig({ WARREN_PROCESSES: "4" }).processes).toBe(4);
    expect(loadConfig({ WARREN_PROCESSES: "14" }).processes).toBe(14);
    expect(loadConfig({ WARREN_PROCESSES: "auto" }).processes).toBe(Math.min(availableParallelism(), 14));
  });

  test("the public URL follows the port unless set", () => {
    expect(loadConfig({ WARREN_PORT: "8080" }).url).toBe("http://localhost:8080");
    const config = loadConfig({ WARREN_PORT: "8080", WARREN_URL: "https://social.example" });
    expect(config.url).toBe("https://social.example");
    expect(config.domain).toBe("social.example");
  });

  test("SMTP comes from a URL or from host, port, user and password", () => {
    expect(loadConfig({ WARREN_SMTP_URL: "smtp://mail:25" }).smtp).toEqual({ url: "smtp://mail:25", from: "warren@localhost" });
    expect(loadConfig({ WARREN_SMTP_HOST: "mail", WARREN_SMTP_USER: "u", WARREN_SMTP_FROM: "x@y.z" }).smtp).toMatchObject({ host: "mail", port: 587, user: "u", from: "x@y.z" });
  });

  test("responses are checked under tests and development, not in production, unless configured", () => {
    expect(loadConfig({ NODE_ENV: "test" }).checkResponses).toBe(true);
    expect(loadConfig({ NODE_ENV: "development" }).checkResponses).toBe(true);
    expect(loadConfig({ NODE_ENV: "production" }).checkResponses).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", WARREN_CHECK_RESPONSES: "true" }).checkResponses).toBe(true);
  });
});

describe("invalid values name their variable", () => {
  const cases: [Record<string, string>, string][] = [
    [{ WARREN_PORT: "http" }, "WARREN_PORT"],
    [{ WARREN_PORT: "70000" }, "WARREN_PORT"],
    [{ WARREN_URL: "social.example" }, "WARREN_URL"],
    [{ WARREN_URL: "https://social.example/path" }, "WARREN_URL"],
    [{ WARREN_REGISTRATIONS: "sometimes" }, "WARREN_REGISTRATIONS"],
    [{ WARREN_PASSWORD_GRANT: "perhaps" }, "WARREN_PASSWORD_GRANT"],
    [{ WARREN_REQUIRE_EMAIL_CONFIRMATION: "2" }, "WARREN_REQUIRE_EMAIL_CONFIRMATION"],
    [{ WARREN_JOB_WORKERS: "-1" }, "WARREN_JOB_WORKERS"],
    [{ WARREN_PROCESSES: "0" }, "WARREN_PROCESSES"],
    [{ WARREN_PROCESSES: "all" }, "WARREN_PROCESSES"],
    [{ WARREN_PROCESSES: "15" }, "WARREN_PROCESSES"],
    [{ WARREN_CHECK_RESPONSES: "maybe" }, "WARREN_CHECK_RESPONSES"],
    [{ WARREN_METRICS_TOKEN: "short" }, "WARREN_METRICS_TOKEN"],
    [{ WARREN_METRICS_TOKEN: "a token with spaces in it" }, "WARREN_METRICS_TOKEN"],
    [{ WARREN_LOG_FORMAT: "xml" }, "WARREN_LOG_FORMAT"],
  ];
  for (const [env, name] of cases) {
    test(`${JSON.stringify(env)}`, () => {
      expect(() => loadConfig(env)).toThrow(name);
    });
  }

  test("the server refuses to start with one line on stderr", async () => {
    const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
      env: { ...process.env, WARREN_REGISTRATIONS: "sometimes", WARREN_DATA_DIR: "/nonexistent-warren-dir" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).not.toBe(0);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toContain("WARREN_REGISTRATIONS");
  });
});
