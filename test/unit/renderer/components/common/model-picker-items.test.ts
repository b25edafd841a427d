import { describe, expect, it } from "vitest";
import type { ModelOption } from "../../../../../src/shared/protocol/app-api";
import { flatOptions, groupModels, modelKey, moveActive, optionLabel, typedOffers, effectiveThinkingLevel } from "../../../../../src/renderer/components/common/model-picker-items";
import { providerDisplayName } from "../../../../../src/shared/providers/provider-names";

const model = (provider: string, id: string, name = id, extra: Partial<ModelOption> = {}): ModelOption =>
  ({ provider, id, name, reasoning: false, thinkingLevels: ["off"], contextWindow: 128_000, ...extra });

const MODELS: ModelOption[] = [
  model("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5"),
  model("openai", "gpt-5-mini", "GPT-5 mini"),
  model("anthropic", "claude-haiku-4-5", "Claude Haiku 4.5"),
  model("xiaomi-token-plan-ams", "mimo", "MiMo"),
  model("custom:lm-studio", "qwen3-8b", "qwen3-8b (LM Studio)", { providerName: "LM Studio" }),
  model("openai", "gpt-5", "GPT-5"),
];

const shape = (groups: ReturnType<typeof groupModels>) => groups.map((g) => [g.label, g.options.map((m) => m.id)]);

describe("the model picker's list", () => {
  it("groups models under their providers' names, providers in first-seen order, models in their order", () => {
    expect(shape(groupModels(MODELS, "", providerDisplayName))).toEqual([
      ["Anthropic", ["claude-sonnet-4-5", "claude-haiku-4-5"]],
      ["OpenAI", ["gpt-5-mini", "gpt-5"]],
      ["Xiaomi Token Plan (Amsterdam)", ["mimo"]],
      ["LM Studio", ["qwen3-8b"]],
    ]);
  });

  it("keeps every model exactly once when nothing is typed", () => {
    const all = flatOptions(groupModels(MODELS, "  ", providerDisplayName));
    expect(all.map(modelKey).sort()).toEqual(MODELS.map(modelKey).sort());
  });

  it("filters on every typed word, case-insensitively, in the name, the id or the provider's name", () => {
    expect(shape(groupModels(MODELS, "son 4", providerDisplayName))).toEqual([["Anthropic", ["claude-sonnet-4-5"]]]);
    expect(shape(groupModels(MODELS, "OPENAI mini", providerDisplayName))).toEqual([["OpenAI", ["gpt-5-mini"]]]);
    expect(shape(groupModels(MODELS, "studio", providerDisplayName))).toEqual([["LM Studio", ["qwen3-8b"]]]);
    expect(shape(groupModels(MODELS, "amsterdam", providerDisplayName))).toEqual([["Xiaomi Token Plan (Amsterdam)", ["mimo"]]]);
    expect(groupModels(MODELS, "nothing like it", providerDisplayName)).toEqual([]);
  });

  it("names a custom endpoint's model by its id under the endpoint's heading, others by their names", () => {
    expect(optionLabel(MODELS[4])).toBe("qwen3-8b");
    expect(optionLabel(MODELS[0])).toBe("Claude Sonnet 4.5");
  });

  it("tells models of the same id on two providers apart", () => {
    expect(modelKey({ provider: "openai", id: "x" })).not.toBe(modelKey({ provider: "openrouter", id: "x" }));
  });
});

describe("moving through the model picker with the keyboard", () => {
  it("steps with the arrows and stops at the ends", () => {
    expect(moveActive(-1, 5, "ArrowDown")).toBe(0);
    expect(moveActive(0, 5, "ArrowDown")).toBe(1);
    expect(moveActive(4, 5, "ArrowDown")).toBe(4);
    expect(moveActive(-1, 5, "ArrowUp")).toBe(4);
    expect(moveActive(0, 5, "ArrowUp")).toBe(0);
  });

  it("moves a page with PageUp and PageDown, never past the ends", () => {
    expect(moveActive(0, 20, "PageDown")).toBe(8);
    expect(moveActive(15, 20, "PageDown")).toBe(19);
    expect(moveActive(10, 20, "PageUp")).toBe(2);
    expect(moveActive(3, 20, "PageUp")).toBe(0);
  });

  it("has nowhere to go in an empty list", () => {
    expect(moveActive(-1, 0, "ArrowDown")).toBe(-1);
    expect(moveActive(3, 0, "PageUp")).toBe(-1);
  });
});

describe("typing a model id the list lacks", () => {
  const offers = (query: string) => typedOffers(query, MODELS, providerDisplayName).map((o) => `${o.label}: ${o.id}`);
  it("offers it for every built-in provider with a key, the one whose models look most like it first", () => {
    expect(offers("claude-opus-5-6")).toEqual(["Anthropic: claude-opus-5-6", "OpenAI: claude-opus-5-6", "Xiaomi Token Plan (Amsterdam): claude-opus-5-6"]);
    expect(offers("gpt-6")).toEqual(["OpenAI: gpt-6", "Anthropic: gpt-6", "Xiaomi Token Plan (Amsterdam): gpt-6"]);
  });
  it("offers it only for the provider the text names, by id or by a word of its name, or by a provider/ prefix", () => {
    expect(offers("claude-opus-5-6 anthropic")).toEqual(["Anthropic: claude-opus-5-6"]);
    expect(offers("Xiaomi mimo-2")).toEqual(["Xiaomi Token Plan (Amsterdam): mimo-2"]);
    expect(offers("openai/gpt-6")[0]).toBe("OpenAI: gpt-6");
    expect(offers("openai/gpt-6")).toContain("Anthropic: openai/gpt-6");
  });
  it("offers nothing for a listed id, for words that name no provider, for an empty field, or for a custom endpoint", () => {
    expect(offers("gpt-5")).toEqual([]);
    expect(offers("claude opus")).toEqual([]);
    expect(offers("  ")).toEqual([]);
    expect(offers("qwen3-9b lm")).toEqual([]);
    expect(offers("x".repeat(201))).toEqual([]);
  });
});

describe("the thinking level a model is asked for", () => {
  it("is the chat's level where the model has it, else pi-ai's clamp: the nearest above, else below", () => {
    expect(effectiveThinkingLevel("max", ["off", "low", "medium", "high", "xhigh", "max"])).toBe("max");
    expect(effectiveThinkingLevel("max", ["off", "minimal", "low", "medium", "high"])).toBe("high");
    expect(effectiveThinkingLevel("minimal", ["off", "low", "medium", "high"])).toBe("low");
    expect(effectiveThinkingLevel("xhigh", ["off", "high", "max"])).toBe("max");
    expect(effectiveThinkingLevel("high", ["off"])).toBe("off");
  });
});
