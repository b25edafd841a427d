/**
 * What a log line loses before it is written (main/logs/log-redaction.ts): values under secret-looking names, URL
 * credentials, bearer tokens, the shapes of common keys, and the very keys main holds; ordinary text stays.
 */
import { describe, expect, it } from "vitest";
import { environmentSecrets, logRedactor, REDACTED } from "../../../../src/main/logs/log-redaction";

const redact = logRedactor(() => ["correct-horse-battery-staple", "short"]);

describe("logRedactor", () => {
  it.each([
    ["OPENAI_API_KEY=abc123def456", `OPENAI_API_KEY=${REDACTED}`],
    ['{"apiKey": "abc123def456", "model": "gpt"}', `{"apiKey": "${REDACTED}", "model": "gpt"}`],
    ["x-api-key: abc123def456", `x-api-key: ${REDACTED}`],
    ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc", `Authorization: Bearer ${REDACTED}`],
    ["proxy http://user:pa55@proxy.example:3128 refused", "proxy http://proxy.example:3128 refused"],
    ["failed with sk-ant-api03-abcdefghijklmnopqrstuvwxyz", `failed with ${REDACTED}`],
    ["google AIzaSyA1234567890abcdefghijklmnopqrstu", `google ${REDACTED}`],
    ["token ghp_abcdefghijklmnopqrstuvwxyz0123456789", `token ${REDACTED}`],
    ["the saved key correct-horse-battery-staple leaked", `the saved key ${REDACTED} leaked`],
  ])("%s", (line, expected) => {
    expect(redact(line)).toBe(expected);
  });

  it("leaves ordinary lines alone, and ignores known values too short to search for", () => {
    for (const line of ["worker started in 120 ms", "GIT_AUTHOR_NAME=Ada", "tokenizers: 4", "a short line", "model=gpt-4.1 tokens=1200"]) {
      expect(redact(line)).toBe(line);
    }
  });

  it("costs linear time on a long line of letters", () => {
    const started = performance.now();
    redact("z".repeat(100_000));
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("environmentSecrets", () => {
  it("lists the values of secret-looking variables only", () => {
    expect(environmentSecrets({ HOME: "/home/ada", ANTHROPIC_API_KEY: "k1", GH_TOKEN: "k2", EMPTY_TOKEN: "" }).sort()).toEqual(["k1", "k2"]);
  });
});
