/**
 * Settings' API-key rows: by display name, the providers with a key first (saved here or from the environment),
 * the rest counted and filtered by any words of their name or id; custom endpoints are not key rows.
 */
import { describe, expect, it } from "vitest";
import type { ProviderStatus } from "../../../../../src/shared/protocol/app-api";
import { keyRows } from "../../../../../src/renderer/components/settings/provider-rows";

const status = (provider: string, keySource: ProviderStatus["keySource"] = "none"): ProviderStatus => ({ provider, keySource });

const statuses: ProviderStatus[] = [
  status("xiaomi-token-plan-ams"),
  status("openai", "settings"),
  status("google"),
  status("anthropic", "environment"),
  status("groq"),
  status("xiaomi"),
  { provider: "custom:ollama", keySource: "settings", origin: "http://127.0.0.1:11434" },
];
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe("keyRows", () => {
  it("lists the providers with a key first, by name, then the rest by name", () => {
    const rows = keyRows(statuses);
    expect(names(rows.configured)).toEqual(["Anthropic", "OpenAI"]);
    expect(names(rows.others)).toEqual(["Google Gemini", "Groq", "Xiaomi", "Xiaomi Token Plan (Amsterdam)"]);
    expect(rows.othersTotal).toBe(4);
  });

  it("leaves custom endpoints to the endpoint editor", () => {
    const all = keyRows(statuses);
    expect([...all.configured, ...all.others].map((r) => r.status.provider)).not.toContain("custom:ollama");
  });

  it("filters the rest by every word, in the name or the id, ignoring case; the count stays the whole rest", () => {
    expect(names(keyRows(statuses, "xiaomi AMS").others)).toEqual(["Xiaomi Token Plan (Amsterdam)"]);
    expect(names(keyRows(statuses, "  gemini ").others)).toEqual(["Google Gemini"]);
    const none = keyRows(statuses, "nothing-like-this");
    expect(none.others).toEqual([]);
    expect(none.othersTotal).toBe(4);
    expect(names(none.configured)).toEqual(["Anthropic", "OpenAI"]);
  });

  it("moves a provider to the top once it has a key", () => {
    const withKey = statuses.map((s) => (s.provider === "xiaomi-token-plan-ams" ? { ...s, keySource: "settings" as const } : s));
    expect(names(keyRows(withKey).configured)).toEqual(["Anthropic", "OpenAI", "Xiaomi Token Plan (Amsterdam)"]);
  });
});
