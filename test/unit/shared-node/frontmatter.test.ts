/**
 * Frontmatter read as pi reads skills' and templates' (BOM dropped, CRLF and CR line ends, no frontmatter: all body),
 * but only ever as YAML data: `---js` and the like are refused, never run, and bad YAML is a reason in words.
 */
import { describe, expect, it } from "vitest";
import { parseFrontmatter } from "../../../src/shared-node/frontmatter";

describe("parseFrontmatter", () => {
  it("reads fields and a trimmed body, through a BOM and CRLF line ends", () => {
    expect(parseFrontmatter("\uFEFF---\r\nname: x\r\ndescription: A y.\r\n---\r\n\r\nBody\r\n")).toEqual({ ok: true, fields: { name: "x", description: "A y." }, body: "Body" });
  });

  it("takes a file without frontmatter, or never closed, as all body (untrimmed, as pi)", () => {
    expect(parseFrontmatter("\nJust text\n")).toEqual({ ok: true, fields: {}, body: "\nJust text\n" });
    expect(parseFrontmatter("---\nname: x\nno end")).toEqual({ ok: true, fields: {}, body: "---\nname: x\nno end" });
  });

  it("takes an empty frontmatter as no fields", () => {
    expect(parseFrontmatter("---\n---\nBody")).toEqual({ ok: true, fields: {}, body: "Body" });
  });

  it("refuses frontmatter in another language, and says why", () => {
    expect(parseFrontmatter("---js\n{ name: 'x' }\n---\n")).toEqual({ ok: false, reason: "frontmatter in another language (---js) is refused: only YAML between --- lines is read" });
    expect(parseFrontmatter("---javascript\nx\n---\n").ok).toBe(false);
  });

  it("says what is wrong with YAML that is not a mapping or not valid", () => {
    expect(parseFrontmatter("---\n- a\n- b\n---\n")).toEqual({ ok: false, reason: "frontmatter must be a set of key: value lines" });
    expect(parseFrontmatter("---\ndescription: [unclosed\n---\n")).toMatchObject({ ok: false, reason: expect.stringMatching(/^frontmatter is not valid YAML \(/) });
  });

  it("never makes code of a tag that other YAML readers would: it stays text", () => {
    const read = parseFrontmatter("---\nfn: !!js/function 'function () {}'\n---\n");
    expect(read.ok && typeof read.fields.fn).toBe("string");
  });
});
