import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { KeyedRecord } from "../../../src/shared/keyed-record";
import { schemaErrors } from "../../../src/shared/schema-errors";

describe("KeyedRecord", () => {
  it("refuses every key its pattern does not match in full, which Type.Record lets through", () => {
    const ids = KeyedRecord("^[0-9a-f]{4}\\.txt$", Type.String());
    expect(schemaErrors(ids, { "abcd.txt": "ok" }, "files")).toEqual([]);
    expect(schemaErrors(ids, { "abcd.txt/../../.bashrc": "x" }, "files")).toEqual(['files: key(s) not allowed: "abcd.txt/../../.bashrc"']);
    expect(schemaErrors(ids, { "abcd.txt": 1 }, "files")).toEqual(["abcd.txt: must be string"]);
    // What it guards against: TypeBox's own record checks the matching keys only.
    expect(schemaErrors(Type.Record(Type.String({ pattern: "^[0-9a-f]{4}\\.txt$" }), Type.String()), { "../x": "x" }, "files")).toEqual([]);
  });

  it("quotes hostile keys short in its complaint", () => {
    const [line] = schemaErrors(KeyedRecord("^a$", Type.String()), { [`b${"x".repeat(500)}\n`]: "x" }, "m");
    expect(line).toBe(`m: key(s) not allowed: "b${"x".repeat(99)}"`);
  });

  it("takes only anchored patterns, which check the whole key", () => {
    expect(() => KeyedRecord("[a-z]+", Type.String())).toThrow(/must be anchored/);
    expect(() => KeyedRecord("^[a-z]+", Type.String())).toThrow(/must be anchored/);
    expect(() => KeyedRecord("^[a-z]+\\$", Type.String())).toThrow(/must be anchored/);
  });
});
