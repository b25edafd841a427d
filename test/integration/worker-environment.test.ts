/**
 * Provider keys and other secrets in main's environment never reach a command, with real workers and the real
 * tools: the model runs `printenv` (and reads its parent's environment, which is the worker's) through `bash`, in
 * the sandbox where there is one and without it, and neither the key nor a secret-looking variable comes back in
 * the tool result or in any request to the model. A key that only the environment holds still reaches the model's
 * provider, handed over by main's `getApiKey` (main keeps its whole environment; the worker has none of it).
 */
import { afterEach, describe, expect, it } from "vitest";
import { catalogModels as getModels } from "../../src/main/broker/model-catalog";
import { workerApiKey } from "../../src/main/broker/endpoint-keys";
import { turnDirective } from "../../src/web-host/openai-test-server";
import { sandboxForTests } from "../../testkit/sandbox-support";
import { waitForView, type Harness, settled } from "../../testkit/worker-harness";
import { harnessPerTest } from "../../testkit/harness-per-test";

const sandbox = await sandboxForTests("the sandboxed printenv test");

/** What main's environment holds: a provider's key, another service's token, a proxy with a password. */
const MAIN_ENV = {
  ANTHROPIC_API_KEY: "sk-test-secret-anthropic",
  MY_SERVICE_TOKEN: "svc-test-secret-token",
  HTTPS_PROXY: "http://ann:proxy-test-secret@127.0.0.1:9",
  NO_PROXY: "127.0.0.1,localhost",
};
const SECRETS = [/sk-test-secret-anthropic/, /svc-test-secret-token/, /proxy-test-secret/];

const harnesses = harnessPerTest();
const folders = harnesses.folders;

const saved = new Map<string, string | undefined>();

/** Sets variables in main's (this process's) environment, which the workers started afterwards are given. */
function setMainEnv(vars: Record<string, string>): void {
  for (const [name, value] of Object.entries(vars)) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    process.env[name] = value;
  }
}

afterEach(async () => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

const lastToolResult = (harness: Harness) => {
  const messages = harness.server.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
  return String(messages.filter((m) => m.role === "tool").at(-1)?.content ?? "");
};

/** Everything the model's server was sent: bodies and headers of every request. */
const everythingSent = (harness: Harness) => JSON.stringify(harness.server.requests);

/** The attack: print the command's environment, and the environment of the process that started it (the worker). */
const PRINT_ENV = "printenv; echo ---parent---; tr '\\0' '\\n' < /proc/$PPID/environ 2>/dev/null; echo ---end---";

/** The command's output, and everything the model's server was sent meanwhile. */
async function runPrintenv(id: string, approve: boolean): Promise<{ output: string; sent: string }> {
  const root = folders.make();
  const h = await harnesses.start({ workspaceOf: () => root, settings: { toolApproval: { bash: "allow" } } });
  const client = await h.client(id);
  await waitForView(client, (v) => v.workspace?.sandboxChecking !== true);
  void client.prompt(turnDirective({ toolCalls: [{ id: "p1", name: "bash", arguments: { command: PRINT_ENV } }] })).catch(() => {});
  if (approve) {
    await waitForView(client, (v) => v.approvals.length > 0);
    await client.answerApproval("p1", "once");
  }
  await settled(client, 4);
  return { output: lastToolResult(h), sent: everythingSent(h) };
}

describe("secrets in main's environment", () => {
  it.skipIf(!sandbox.available)("a sandboxed command sees none of them", async () => {
    setMainEnv(MAIN_ENV);
    const { output, sent } = await runPrintenv("sandboxed", false);
    expect(output).toContain("---end---");
    expect(output).toMatch(/^PATH=/m); // it did print the environment
    expect(output).toContain("HTTPS_PROXY="); // the sandbox's own proxy, or the user's without its password
    for (const secret of SECRETS) {
      expect(output).not.toMatch(secret);
      expect(sent).not.toMatch(secret);
    }
    expect(output).not.toMatch(/^(ANTHROPIC_API_KEY|MY_SERVICE_TOKEN)=/m);
  });

  it("a command without a sandbox sees none of them, nor does the worker that started it hold them", async () => {
    setMainEnv({ ...MAIN_ENV, PADDOCK_NO_SANDBOX: "1" });
    const { output, sent } = await runPrintenv("unsandboxed", true);
    expect(output).toContain("---end---");
    expect(output).toMatch(/^PATH=/m);
    for (const secret of SECRETS.slice(0, 2)) expect(output).not.toMatch(secret);
    expect(output).toContain("HTTPS_PROXY=http://127.0.0.1:9"); // the user's proxy, its password taken out
    if (process.platform === "linux") expect(output).toMatch(/---parent---\n[\s\S]*MALLOC_ARENA_MAX=/); // the worker's own
    // The worker keeps its proxy's password (its own requests may need it); its command does not get it.
    expect(output.split("---parent---")[0]).not.toMatch(SECRETS[2]);
    expect(sent).not.toMatch(/sk-test-secret-anthropic|svc-test-secret-token/);
  });

  it("a key only the environment holds still reaches the provider: main hands it to the worker for each request", async () => {
    const [groq] = getModels("groq");
    setMainEnv({ GROQ_API_KEY: "gsk-env-only-key" });
    const h = await harnesses.start({
      settings: { defaultModel: { provider: "groq", id: groq.id } },
      // Main's real rule for a built-in provider's key: a stored key, else pi-ai's environment variable (main's).
      getApiKey: (provider) => workerApiKey(provider, undefined, { get: () => undefined }, []),
      // The provider's own model, its requests sent to the loopback server instead.
      resolveModel: (ref) => ({ ...getModels("groq").find((m) => m.id === ref.id)!, baseUrl: h.server.baseUrl }),
    });
    const client = await h.client("env-key");
    await client.prompt("hello");
    await settled(client, 2);
    expect(client.mirror.getView().state.errorMessage).toBeUndefined();
    expect(h.server.requests.at(-1)!.headers.authorization).toBe("Bearer gsk-env-only-key");
  });
});
