/**
 * Providers by display name: every provider pi-ai knows gets a name people recognise, distinct from the others;
 * custom endpoints go by the name the user gave them; an id nobody named is title-cased, never shown raw.
 */
import { catalogProviders as getProviders } from "../../../../src/main/broker/model-catalog";
import { describe, expect, it } from "vitest";
import { providerDisplayName, titleCaseId } from "../../../../src/shared/providers/provider-names";
import type { CustomProvider } from "../../../../src/shared/settings/schema";

describe("providerDisplayName", () => {
  it("names pi-ai's providers as their makers do", () => {
    expect(providerDisplayName("xiaomi-token-plan-ams")).toBe("Xiaomi Token Plan (Amsterdam)");
    expect(providerDisplayName("google")).toBe("Google Gemini");
    expect(providerDisplayName("openai")).toBe("OpenAI");
    expect(providerDisplayName("github-copilot")).toBe("GitHub Copilot");
    expect(providerDisplayName("xai")).toBe("xAI");
  });

  it("gives every provider pi-ai knows a name of its own, never its raw id", () => {
    const names = getProviders().map((p) => providerDisplayName(p));
    for (const [i, p] of getProviders().entries()) expect(names[i], p).not.toBe(p);
    expect(new Set(names).size).toBe(names.length);
  });

  it("names a custom endpoint by the name the user gave it, or by its id once it is gone", () => {
    const endpoints: CustomProvider[] = [{ id: "lm-studio", name: "LM Studio on the desk", baseUrl: "http://127.0.0.1:1234/v1", models: [] }];
    expect(providerDisplayName("custom:lm-studio", endpoints)).toBe("LM Studio on the desk");
    expect(providerDisplayName("custom:lm-studio")).toBe("lm-studio");
  });

  it("title-cases an id it does not know", () => {
    expect(providerDisplayName("acme-cloud-ai")).toBe("Acme Cloud AI");
    expect(providerDisplayName("")).toBe("Unknown provider");
  });
});

describe("titleCaseId", () => {
  it("splits at dashes, underscores, dots and spaces and capitalises each word, acronyms in capitals", () => {
    expect(titleCaseId("my_llm.gateway api")).toBe("My LLM Gateway API");
    expect(titleCaseId("groq")).toBe("Groq");
  });

  it("keeps an id with no words as it is rather than showing nothing", () => {
    expect(titleCaseId("--")).toBe("--");
    expect(titleCaseId("")).toBe("");
  });
});
