import { describe, expect, it } from "vitest";
import { BoundedCache } from "../../../../../src/renderer/components/markdown/bounded-cache";

const bySize = () => new BoundedCache<string>(3, 100, (key, value) => key.length + value.length);

describe("BoundedCache", () => {
  it("keeps at most its number of entries, the least recently used going first", () => {
    const cache = bySize();
    cache.set("a", "1");
    cache.set("b", "2");
    cache.set("c", "3");
    expect(cache.get("a")).toBe("1"); // now the most recently used
    cache.set("d", "4");
    expect(cache.has("b")).toBe(false);
    expect(["a", "c", "d"].map((k) => cache.get(k))).toEqual(["1", "3", "4"]);
    expect(cache.size).toBe(3);
  });

  it("keeps its characters within the limit, and the newest entry even when it alone is over", () => {
    const cache = bySize();
    cache.set("a", "x".repeat(40));
    cache.set("b", "y".repeat(40));
    expect(cache.totalChars).toBe(82);
    cache.set("c", "z".repeat(40));
    expect(cache.has("a")).toBe(false);
    expect(cache.totalChars).toBe(82);
    cache.set("huge", "h".repeat(500));
    expect(cache.size).toBe(1);
    expect(cache.get("huge")).toHaveLength(500);
    expect(cache.totalChars).toBe(504);
  });

  it("replacing a key counts its new size only, and null values are kept as values", () => {
    const cache = new BoundedCache<string | null>(3, 100, (key, value) => key.length + (value?.length ?? 0));
    cache.set("k", "long value");
    cache.set("k", null);
    expect(cache.totalChars).toBe(1);
    expect(cache.get("k")).toBeNull();
    expect(cache.get("missing")).toBeUndefined();
  });
});
