/**
 * pi's models.json as Paddock reads it (main/broker/pi-models-file.ts): pi 1.6.0's format, keys resolved as pi
 * resolves them except commands, which are never run; a malformed file or part of one is a problem in words that
 * loses nothing else and never repeats a key; a FIFO, a folder or a link to one is never opened.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { configValue, parsePiModels, readPiModelsFile } from "../../../../src/main/broker/pi-models-file";
import { Fifos } from "../../../../testkit/fifos";

const isBuiltIn = (id: string) => ["anthropic", "openai", "groq"].includes(id);
const dir = mkdtempSync(join(tmpdir(), "paddock-pi-models-"));
const fifos = new Fifos();
afterEach(() => fifos.releaseAll());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("configValue: a key or header value as pi resolves it", () => {
  const env = { OLLAMA_KEY: "sk-env", EMPTY: "" };
  it("takes literals, $NAME and ${NAME}, and $$ and $! as literal $ and !", () => {
    expect(configValue("sk-literal", env)).toEqual({ value: "sk-literal" });
    expect(configValue("$OLLAMA_KEY", env)).toEqual({ value: "sk-env" });
    expect(configValue("Bearer ${OLLAMA_KEY}!", env)).toEqual({ value: "Bearer sk-env!" });
    expect(configValue("a$$b$!c", env)).toEqual({ value: "a$b!c" });
    expect(configValue("cost $5", env)).toEqual({ value: "cost $5" });
  });
  it("names an unset variable, and never runs a command", () => {
    expect(configValue("$MISSING_KEY", env)).toEqual({ problem: "names $MISSING_KEY, which is not set" });
    expect(configValue("$EMPTY", env)).toEqual({ problem: "names $EMPTY, which is not set" });
    const command = configValue("!touch /tmp/paddock-ran-it && echo sk", env);
    expect(command).toMatchObject({ problem: expect.stringContaining("command, which Paddock does not run") });
  });
});

describe("parsePiModels", () => {
  const env = { GROQ_PROXY_KEY: "sk-groq-secret" };
  it("reads pi's example: a new provider with its models, and a built-in provider moved to a proxy", () => {
    const { providers, problems } = parsePiModels({
      $schema: "https://pi.dev/schemas/models.schema.json",
      providers: {
        ollama: { baseUrl: "http://localhost:11434/v1", api: "openai-completions", apiKey: "ollama", models: [{ id: "qwen2.5-coder:7b" }] },
        anthropic: { baseUrl: "https://proxy.example.com/v1/" },
      },
    }, { isBuiltIn, env });
    expect(problems).toEqual([]);
    expect(providers).toEqual([
      { key: "ollama", builtIn: false, baseUrl: "http://localhost:11434/v1", api: "openai-completions", apiKey: "ollama", models: [{ id: "qwen2.5-coder:7b" }] },
      { key: "anthropic", builtIn: true, baseUrl: "https://proxy.example.com/v1", models: [] },
    ]);
  });

  it("keeps every good part of a file with bad ones, says what each bad one is, and never repeats a key", () => {
    const { providers, problems } = parsePiModels({
      providers: {
        "bad id": { baseUrl: "http://x" },
        nourl: { api: "openai-completions", models: [{ id: "m" }] },
        notobject: 3,
        local: {
          baseUrl: "http://127.0.0.1:8080/v1", apiKey: "sk-literal-secret", api: "made-up-api",
          models: [{ id: "good", contextWindow: 8192, input: ["text", "image"], reasoning: true }, { name: "no id" }, { id: "bad-limit", api: "openai-completions", maxTokens: -1 }],
        },
        cmd: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "!op read secret", models: [{ id: "x" }] },
        groq: { apiKey: "$GROQ_PROXY_KEY", headers: { "X-Team": "${GROQ_PROXY_KEY}", "bad header": "v" }, models: [{ id: "groq-new" }] },
      },
    }, { isBuiltIn, env });
    expect(providers.map((p) => p.key)).toEqual(["local", "cmd", "groq"]);
    const local = providers[0];
    expect(local.api).toBeUndefined();
    // "good" has no api of its own and the provider's is unknown: skipped; "bad-limit" keeps its default limit.
    expect(local.models).toEqual([{ id: "bad-limit", api: "openai-completions" }]);
    expect(providers[1].apiKey).toBeUndefined();
    expect(providers[2]).toMatchObject({ builtIn: true, apiKey: "sk-groq-secret", headers: { "X-Team": "sk-groq-secret" }, models: [{ id: "groq-new" }] });
    const text = problems.join("\n");
    for (const said of ['Provider "bad id"', 'Provider "nourl": a new provider needs a "baseUrl"', 'Provider "notobject" is not an object',
      '"api" "made-up-api" is not one Paddock speaks', 'model "good" has no "api"', "a model without an \"id\"", 'model "bad-limit": "maxTokens" is not a whole number',
      'Provider "cmd": its apiKey comes from a command, which Paddock does not run', 'the header name "bad header"']) {
      expect(text).toContain(said);
    }
    expect(text).not.toMatch(/sk-literal-secret|sk-groq-secret|op read secret/);
  });

  it("reads a provider's modelOverrides by model id, keeping each good field and saying what of a bad one is ignored", () => {
    const { providers, problems } = parsePiModels({
      providers: {
        anthropic: {
          modelOverrides: {
            "claude-a": {
              name: " Claude A (proxy) ", contextWindow: 500_000, maxTokens: -5, input: ["text"], reasoning: false,
              cost: { input: 1.5, cacheRead: 0 }, thinkingLevelMap: { high: "max", off: null }, headers: { "X-Route": "$GROQ_PROXY_KEY" }, compat: { supportsTemperature: false },
            },
            "claude-b": { cost: { input: "free" }, thinkingLevelMap: { turbo: "x" } },
            "claude-c": 7,
          },
        },
        groq: { modelOverrides: [] },
      },
    }, { isBuiltIn, env });
    expect(providers[0].modelOverrides).toEqual(new Map([
      ["claude-a", {
        name: "Claude A (proxy)", contextWindow: 500_000, input: ["text"], reasoning: false, cost: { input: 1.5, cacheRead: 0 },
        thinkingLevelMap: { high: "max", off: null }, headers: { "X-Route": "sk-groq-secret" }, compat: { supportsTemperature: false },
      }],
      ["claude-b", {}],
    ]));
    expect(providers[1].modelOverrides).toBeUndefined();
    const text = problems.join("\n");
    for (const said of ['the override of model "claude-a": "maxTokens" is not a whole number of tokens', 'the override of model "claude-b": "cost" is not an object of prices',
      'the override of model "claude-b": "thinkingLevelMap" is not an object of thinking levels', 'the override of model "claude-c": not an object', 'Provider "groq": "modelOverrides" is not an object']) {
      expect(text).toContain(said);
    }
    expect(text).not.toContain("sk-groq-secret");
  });

  it("a file that is not an object, or whose providers are not, adds nothing and says so", () => {
    expect(parsePiModels([1, 2], { isBuiltIn }).problems).toEqual(["models.json is not a JSON object: none of its models are offered."]);
    expect(parsePiModels({ providers: [] }, { isBuiltIn }).problems[0]).toMatch(/"providers" is not an object/);
    expect(parsePiModels({}, { isBuiltIn })).toEqual({ providers: [], problems: [] });
  });
});

describe("readPiModelsFile", () => {
  const opts = { isBuiltIn, env: {} };
  it("no file: nothing, and no problem", async () => {
    expect(await readPiModelsFile(join(dir, "absent", "models.json"), opts)).toMatchObject({ state: "none", providers: [], problems: [] });
  });
  it("a file that is not JSON: said with its path, nothing from it used", async () => {
    const path = join(dir, "broken.json");
    writeFileSync(path, "{ providers: ");
    const read = await readPiModelsFile(path, opts);
    expect(read.state).toBe("unreadable");
    expect(read.problems).toEqual([expect.stringMatching(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not valid JSON \\(.+\\): none of its models are offered\\.$`))]);
  });
  it("a file over 1 MB is not read, and says so", async () => {
    const path = join(dir, "huge.json");
    writeFileSync(path, `{"providers":{},"pad":"${"x".repeat(1024 * 1024)}"}`);
    expect(await readPiModelsFile(path, opts)).toMatchObject({ state: "unreadable", problems: [expect.stringMatching(/is larger than 1024 KB \(\d+ bytes\): none of its models are offered\.$/)] });
  });
  it("never opens a FIFO, a folder or a link to a FIFO; follows a link to a regular file", async () => {
    const fifo = fifos.make(join(dir, "fifo.json"));
    expect(await readPiModelsFile(fifo, opts)).toMatchObject({ state: "unreadable", problems: [expect.stringContaining("a FIFO (named pipe)")] });
    const link = join(dir, "link-to-fifo.json");
    symlinkSync(fifo, link);
    expect(await readPiModelsFile(link, opts)).toMatchObject({ state: "unreadable", problems: [expect.stringContaining("a FIFO")] });
    mkdirSync(join(dir, "folder.json"));
    expect(await readPiModelsFile(join(dir, "folder.json"), opts)).toMatchObject({ state: "unreadable", problems: [expect.stringContaining("a folder")] });
    const real = join(dir, "dotfiles-models.json");
    writeFileSync(real, JSON.stringify({ providers: { openai: { baseUrl: "http://127.0.0.1:1/v1" } } }));
    const dotfile = join(dir, "models.json");
    symlinkSync(real, dotfile);
    expect(await readPiModelsFile(dotfile, opts)).toMatchObject({ state: "read", providers: [{ key: "openai", baseUrl: "http://127.0.0.1:1/v1" }] });
  });
});
