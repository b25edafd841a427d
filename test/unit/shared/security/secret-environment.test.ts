/**
 * Which environment variables count as secrets (shared/security/secret-environment.ts), and the environments built
 * from that rule: a command's (no secret at all, no credentials in URLs), an agent worker's and the MCP host's
 * (main/broker/worker-process.ts: no provider key; a worker keeps the cloud credentials its SDKs read). The
 * variables pi-ai reads keys from are taken from pi-ai's own source, so a provider it adds cannot slip past.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { commandEnvironment, looksSecret, withoutUrlCredentials } from "../../../../src/shared/security/secret-environment";
import { mcpHostEnvironment, workerEnvironment } from "../../../../src/main/broker/worker-process";
import { McpSupervisor } from "../../../../src/main/mcp/mcp-supervisor";
import { everythingStdio } from "../../../../testkit/mcp-everything";

/** Every variable pi-ai's providers and `getEnvApiKey` read, as its built source names them. */
function piAiVariables(): string[] {
  const dist = resolve("node_modules/@earendil-works/pi-ai/dist");
  const files = [
    join(dist, "env-api-keys.js"),
    ...["providers", "api", "auth", "utils"].flatMap((dir) => readdirSync(join(dist, dir)).filter((f) => f.endsWith(".js")).map((f) => join(dist, dir, f))),
  ];
  const names = new Set<string>();
  for (const file of files) {
    const source = readFileSync(file, "utf8");
    // process.env.NAME, getProcEnv("NAME"), and the `{NAME}` placeholders Cloudflare's addresses take from process.env.
    // pi-ai 1.6.0 also reads through getProviderEnvValue("NAME", env) and names a provider's key variables in
    // envApiKeyAuth("...", ["NAME", ...]).
    for (const match of source.matchAll(/process\.env\.([A-Za-z_][A-Za-z0-9_]*)|(?:getProcEnv|getProviderEnvValue|env)\("([A-Za-z0-9_]+)"|"[^"\n]*\{([A-Z][A-Z0-9_]+)\}/g)) {
      names.add(match[1] ?? match[2] ?? match[3]);
    }
    for (const list of source.matchAll(/envApiKeyAuth\([^,]+,\s*\[([^\]]*)\]/g)) {
      for (const match of list[1].matchAll(/"([A-Z][A-Z0-9_]+)"/g)) names.add(match[1]);
    }
  }
  // The provider -> variable table: quoted names inside getApiKeyEnvVars.
  const keys = readFileSync(join(dist, "env-api-keys.js"), "utf8");
  const table = keys.slice(keys.indexOf("_ENV = "), keys.indexOf("function findEnvKeys"));
  expect(table.length, "pi-ai's getApiKeyEnvVars moved: update this reader").toBeGreaterThan(500);
  for (const match of table.matchAll(/"([A-Z][A-Z0-9_]+)"/g)) names.add(match[1]);
  names.delete("LOGO_SVG"); // a placeholder in pi-ai's OAuth page template, not a variable
  return [...names].sort();
}

/** What pi-ai reads that is configuration, not a secret: commands may see it. */
const PI_AI_SETTINGS = new Set([
  "AWS_BEDROCK_FORCE_CACHE", "AWS_BEDROCK_FORCE_HTTP1", "AWS_DEFAULT_REGION", "AWS_PROFILE", "AWS_REGION",
  "AZURE_OPENAI_API_VERSION", "CLOUDFLARE_ACCOUNT_ID", "CLOUDFLARE_GATEWAY_ID", "AZURE_OPENAI_BASE_URL", "AZURE_OPENAI_DEPLOYMENT_NAME_MAP", "AZURE_OPENAI_RESOURCE_NAME",
  "GCLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION", "GOOGLE_CLOUD_PROJECT", "PI_CACHE_RETENTION",
  // Anthropic's workload identity federation: identifiers; the credential is the token file (ANTHROPIC_IDENTITY_TOKEN_FILE).
  "ANTHROPIC_FEDERATION_RULE_ID", "ANTHROPIC_ORGANIZATION_ID", "ANTHROPIC_SERVICE_ACCOUNT_ID", "ANTHROPIC_WORKSPACE_ID",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
]);

describe("looksSecret", () => {
  it("catches every variable pi-ai reads a key or a credential from", () => {
    const names = piAiVariables();
    for (const key of ["ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "OPENAI_API_KEY", "COPILOT_GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "AWS_BEARER_TOKEN_BEDROCK", "CLOUDFLARE_ACCOUNT_ID"]) {
      expect(names).toContain(key); // the reader still finds them
    }
    expect(names.filter((name) => looksSecret(name) === PI_AI_SETTINGS.has(name))).toEqual([]);
  });

  it("catches the usual names of other secrets, in either case and as headers", () => {
    for (const name of [
      "MY_SERVICE_TOKEN", "NPM_TOKEN", "npm_config__authToken", "CI_JOB_TOKEN", "AWS_SESSION_TOKEN", "STRIPE_SECRET", "CLIENT_SECRET_ID",
      "DB_PASSWORD", "PGPASSWORD", "MYSQL_PWD", "DB_PASS", "SSHPASS", "GPG_PASSPHRASE", "GOOGLE_APPLICATION_CREDENTIALS", "DOCKER_AUTH_CONFIG",
      "SSL_KEY_FILE", "SIGNING_KEY", "OPENAI_APIKEY", "PRIVATE_KEY", "GITHUB_PAT", "SENTRY_DSN", "SLACK_WEBHOOK_URL",
      "AZURE_STORAGE_CONNECTION_STRING", "SESSION_COOKIE", "Authorization", "Proxy-Authorization", "X-Api-Key", "Cookie", "TOKEN",
    ]) {
      expect(looksSecret(name), name).toBe(true);
    }
  });

  it("keeps what commands need and names that only resemble a secret", () => {
    for (const name of [
      "PATH", "HOME", "USER", "SHELL", "TERM", "LANG", "LC_ALL", "PWD", "OLDPWD", "TMPDIR", "EDITOR", "SSH_AUTH_SOCK", "XAUTHORITY", "DISPLAY",
      "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "TOKENIZERS_PARALLELISM", "KEYBOARD_LAYOUT", "XDG_SESSION_TYPE", "DBUS_SESSION_BUS_ADDRESS",
      "NODE_OPTIONS", "PADDOCK_NO_SANDBOX", "MALLOC_ARENA_MAX", "HTTPS_PROXY", "NO_PROXY", "LOG_LEVEL", "X-Team",
    ]) {
      expect(looksSecret(name), name).toBe(false);
    }
  });
});

describe("withoutUrlCredentials", () => {
  it("takes the user and password out of every URL in a value, and nothing else", () => {
    expect(withoutUrlCredentials("http://user:pa55@proxy.corp:3128")).toBe("http://proxy.corp:3128");
    expect(withoutUrlCredentials("https://ghp_abc@github.com/o/r.git")).toBe("https://github.com/o/r.git");
    expect(withoutUrlCredentials("postgres://app:s3cr@t@db:5432/x?sslmode=require")).toBe("postgres://db:5432/x?sslmode=require");
    expect(withoutUrlCredentials("--index https://u:p@a.example/simple https://b.example/simple")).toBe("--index https://a.example/simple https://b.example/simple");
    for (const plain of ["http://proxy.corp:3128", "https://x.example/?mail=a@b.example", "git@github.com:o/r.git", "a@b", "localhost,.corp"]) {
      expect(withoutUrlCredentials(plain)).toBe(plain);
    }
  });
});

const HOST_ENV = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/ann",
  LANG: "C.UTF-8",
  TERM: "xterm",
  PADDOCK_NO_SANDBOX: "1",
  ANTHROPIC_API_KEY: "sk-ant-secret",
  OPENAI_API_KEY: "sk-openai-secret",
  GH_TOKEN: "ghp_secret",
  MY_SERVICE_TOKEN: "svc-secret",
  DB_PASSWORD: "db-secret",
  AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  AWS_REGION: "eu-west-1",
  GOOGLE_APPLICATION_CREDENTIALS: "/home/ann/adc.json",
  GOOGLE_CLOUD_PROJECT: "p",
  HTTPS_PROXY: "http://ann:proxy-secret@proxy.corp:3128",
  DATABASE_URL: "postgres://app:url-secret@db/x",
  UNSET: undefined,
};

describe("the environments Paddock's processes get", () => {
  it("a command: none of the secrets, no credentials in URLs, the rest as it was", () => {
    const env = commandEnvironment(HOST_ENV);
    expect(env).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/ann",
      LANG: "C.UTF-8",
      TERM: "xterm",
      PADDOCK_NO_SANDBOX: "1",
      AWS_REGION: "eu-west-1",
      GOOGLE_CLOUD_PROJECT: "p",
      HTTPS_PROXY: "http://proxy.corp:3128",
      DATABASE_URL: "postgres://db/x",
    });
    expect(JSON.stringify(env)).not.toMatch(/secret|AKIA/);
  });

  it("an agent worker: no provider key (those come from main's getApiKey), but the cloud credentials and proxies its SDKs use", () => {
    const env = workerEnvironment(HOST_ENV);
    for (const name of ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GH_TOKEN", "MY_SERVICE_TOKEN", "DB_PASSWORD", "UNSET"]) expect(env, name).not.toHaveProperty(name);
    expect(env).toMatchObject({
      PATH: "/usr/bin:/bin",
      PADDOCK_NO_SANDBOX: "1",
      AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
      AWS_SECRET_ACCESS_KEY: "aws-secret",
      GOOGLE_APPLICATION_CREDENTIALS: "/home/ann/adc.json",
      HTTPS_PROXY: "http://ann:proxy-secret@proxy.corp:3128",
      DATABASE_URL: "postgres://db/x",
      MALLOC_ARENA_MAX: "2",
    });
    expect(workerEnvironment({ ...HOST_ENV, MALLOC_ARENA_MAX: "8" }).MALLOC_ARENA_MAX).toBe("8");
  });

  it("the MCP host: not even the cloud credentials", () => {
    const env = mcpHostEnvironment(HOST_ENV);
    for (const name of ["ANTHROPIC_API_KEY", "MY_SERVICE_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "GOOGLE_APPLICATION_CREDENTIALS"]) expect(env, name).not.toHaveProperty(name);
    expect(env).toMatchObject({ PATH: "/usr/bin:/bin", AWS_REGION: "eu-west-1", HTTPS_PROXY: "http://ann:proxy-secret@proxy.corp:3128" });
  });
});

describe("what main starts its processes with", () => {
  afterEach(() => void vi.unstubAllEnvs());

  it("the MCP host gets the MCP host's environment, made from main's own", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-secret");
    vi.stubEnv("AWS_SECRET_ACCESS_KEY", "aws-secret");
    vi.stubEnv("LANG", "C.UTF-8");
    let given: NodeJS.ProcessEnv | undefined;
    const launcher = {
      launch(env?: NodeJS.ProcessEnv): never {
        given = env;
        throw new Error("not started in this test");
      },
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const supervisor = new McpSupervisor({ launcher, servers: () => [everythingStdio()] });
    await supervisor.reconfigure();
    await supervisor.dispose();
    errors.mockRestore();
    expect(given).toMatchObject({ LANG: "C.UTF-8", MALLOC_ARENA_MAX: expect.any(String) });
    expect(given).not.toHaveProperty("ANTHROPIC_API_KEY");
    expect(given).not.toHaveProperty("AWS_SECRET_ACCESS_KEY");
  });
});
