import { describe, expect, it } from "vitest";
import { Value } from "typebox/value";
import { CustomProviderSchema } from "../../../../../src/shared/settings/schema";
import {
  deriveEndpointId, endpointProblems, newDraft, saveErrorText, toDraft, toEndpoint, type EndpointDraft,
} from "../../../../../src/renderer/components/settings/endpoint-draft";

const draft = (patch: Partial<EndpointDraft> = {}): EndpointDraft => ({
  ...newDraft("LM Studio", "http://127.0.0.1:1234/v1", []), ...patch,
});

describe("an endpoint's id, derived from its name", () => {
  it("is the name in lower case, words joined by dashes", () => {
    expect(deriveEndpointId("LM Studio", [])).toBe("lm-studio");
    expect(deriveEndpointId("lm studio", [])).toBe("lm-studio");
    expect(deriveEndpointId("Ollama (GPU box)", [])).toBe("ollama-gpu-box");
    expect(deriveEndpointId("  vLLM 0.6 / prod ", [])).toBe("vllm-0.6-prod");
  });

  it("drops accents and anything the id pattern refuses; an empty or symbol-only name gives \"endpoint\"", () => {
    expect(deriveEndpointId("Café Modèles", [])).toBe("cafe-modeles");
    expect(deriveEndpointId("", [])).toBe("endpoint");
    expect(deriveEndpointId("✨✨", [])).toBe("endpoint");
    expect(deriveEndpointId("-._leading", [])).toBe("leading");
  });

  it("is unique against the ids taken, by a number", () => {
    expect(deriveEndpointId("LM Studio", ["lm-studio"])).toBe("lm-studio-2");
    expect(deriveEndpointId("LM Studio", ["lm-studio", "lm-studio-2"])).toBe("lm-studio-3");
  });

  it("always passes the settings schema, however long or odd the name", () => {
    const names = ["x".repeat(300), `${"a".repeat(63)} b`, "Ünïcödé ⚙️ server", "123", "a".repeat(64)];
    for (const name of names) {
      for (const taken of [[], [deriveEndpointId(name, [])]]) {
        const id = deriveEndpointId(name, taken);
        expect(Value.Check(CustomProviderSchema.properties.id, id), id).toBe(true);
        expect(taken).not.toContain(id);
      }
    }
  });
});

describe("each field of an endpoint, checked as it is typed", () => {
  it("a complete draft has no problems and becomes what the schema accepts", () => {
    const d = draft({ models: "qwen2.5-coder, llama3.2\nqwen2.5-coder", contextWindow: "65536", reasoning: true });
    expect(endpointProblems(d, [])).toEqual({});
    const result = toEndpoint(d, []);
    expect(result).toEqual({
      ok: true,
      endpoint: { id: "lm-studio", name: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1", models: ["qwen2.5-coder", "llama3.2"], reasoning: true, contextWindow: 65536 },
    });
    expect(Value.Check(CustomProviderSchema, result.ok && result.endpoint)).toBe(true);
  });

  it("an id with a space says what to use instead, in words, and is never sent", () => {
    const problems = endpointProblems(draft({ id: "lm studio", idEdited: true }), []);
    expect(problems.id).toBe("Use only letters, digits, dots, dashes and underscores, starting with a letter or digit (no spaces), like “lm-studio”.");
    expect(problems.id).not.toMatch(/pattern/);
    expect(toEndpoint(draft({ id: "lm studio" }), [])).toEqual({ ok: false, problems });
  });

  it("an id another endpoint has is refused", () => {
    expect(endpointProblems(draft(), ["lm-studio"]).id).toBe("Another endpoint has the id “lm-studio”: choose another.");
  });

  it("the name, address, models, key and token limits each say what is wrong", () => {
    const problems = endpointProblems(draft({
      name: " ", baseUrl: "127.0.0.1:1234", models: `ok, ${"m".repeat(201)}`, key: "sk-abc def", contextWindow: "1.5", maxTokens: "0",
    }), []);
    expect(problems).toEqual({
      name: "Give the endpoint a name: model pickers show it.",
      baseUrl: "Start the address with http:// or https://, like http://127.0.0.1:11434/v1.",
      models: `“${"m".repeat(40)}…” is 201 characters long; a model id has at most 200.`,
      key: "The key has a space or a line break in it: paste the key alone.",
      contextWindow: "The context window is a whole number of tokens from 1 to 100,000,000, or empty for the default.",
      maxTokens: "The output limit is a whole number of tokens from 1 to 100,000,000, or empty for the default.",
    });
    expect(endpointProblems(draft({ baseUrl: "" }), []).baseUrl).toBe("Enter the server's address, like http://127.0.0.1:11434/v1.");
    expect(endpointProblems(draft({ baseUrl: "http://host /v1" }), []).baseUrl).toBe("The address has a space in it.");
    expect(endpointProblems(draft({ baseUrl: "ftp://host/v1" }), []).baseUrl).toMatch(/^Start the address with http/);
  });

  it("a saved endpoint comes back as a draft that keeps its id, and saves unchanged", () => {
    const saved = { id: "lab", name: "Lab", baseUrl: "https://lab.example/v1", models: ["a", "b"], images: true, maxTokens: 2048 };
    const d = toDraft(saved);
    expect(d).toMatchObject({ savedId: "lab", id: "lab", models: "a, b", key: "" });
    expect(toEndpoint(d, [])).toEqual({ ok: true, endpoint: saved });
  });
});

describe("main's refusal of a save, in words", () => {
  it("names the endpoint and the field instead of a pattern", () => {
    const message = 'updateSettings: invalid arguments: 0.customProviders.1.id: must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"';
    expect(saveErrorText(message, ["Ollama", "LM Studio"])).toBe("Not saved: “LM Studio”, Id: is not in an accepted form.");
  });

  it("says which id is used twice", () => {
    expect(saveErrorText('Invalid settings: customProviders: the id "lab" is used twice', ["Lab", "Lab"])).toBe("Two endpoints have the id “lab”: change one of them.");
  });

  it("leaves other reasons as they are", () => {
    expect(saveErrorText("The settings file could not be written: disk full", [])).toBe("The settings file could not be written: disk full");
  });
});
