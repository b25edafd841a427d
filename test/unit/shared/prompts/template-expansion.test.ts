/**
 * Prompt template expansion, as pi-coding-agent 1.6.0 does it. The expected values are what pi 1.6.0's own
 * `parseCommandArgs`, `substituteArgs` and `expandPromptTemplate` return for the same input (run once against its
 * dist/core/prompt-templates.js; pi's own test file's cases among them), so a pi user's template reads the same here.
 */
import { describe, expect, it } from "vitest";
import { expandPromptTemplate, parseCommandArgs, substituteArgs } from "../../../../src/shared/prompts/template-expansion";

describe("parseCommandArgs, as pi 1.6.0", () => {
  it.each([
    ["a b c", ["a", "b", "c"]],
    ['"first arg" second', ["first arg", "second"]],
    ["'first arg' second", ["first arg", "second"]],
    ['"" " "', ["", " "]],
    ["doesn't work", ["doesn't", "work"]],
    ['"unclosed arg', ['"unclosed', "arg"]],
    ["it's 'quoted'", ["it's", "quoted"]],
    ['say "the \\"fast\\" path"', ["say", 'the "fast" path']],
    ["a\\ b", ["a\\", "b"]],
    ["a  b\t c\n", ["a", "b", "c"]],
    ['"line1\nline2" second', ["line1\nline2", "second"]],
    ["'x\\'y' z", ["x'y", "z"]],
    ['a"b c', ['a"b', "c"]],
    ["", []],
    ["日本語 🎉 café", ["日本語", "🎉", "café"]],
  ])("%j", (input, expected) => {
    expect(parseCommandArgs(input)).toEqual(expected);
  });
});

describe("substituteArgs, as pi 1.6.0", () => {
  const fifteen = Array.from({ length: 15 }, (_, i) => `v${i}`);
  it.each([
    ["Test: $ARGUMENTS", ["a", "b", "c"], "Test: a b c"],
    ["Test: $@", ["a", "b", "c"], "Test: a b c"],
    ["$ARGUMENTS", ["$1", "$ARGUMENTS"], "$1 $ARGUMENTS"], // never substituted twice
    ["$1 $2 $3 $4 $5", ["a", "b"], "a b   "],
    ["${1:-default}", [], "default"],
    ["${1:-default}", [""], "default"],
    ["${2:-x} $1", ["a"], "x a"],
    ["${@:-none}", [], "none"],
    ["${ARGUMENTS:-none}", ["q"], "q"],
    ["${@:2}", ["a", "b", "c", "d"], "b c d"],
    ["${@:2:2}", ["a", "b", "c", "d"], "b c"],
    ["${@:0}", ["a", "b"], "a b"],
    ["${@:99}", ["a", "b"], ""],
    ["$0", ["a"], ""],
    ["$1.5", ["a"], "a.5"],
    ["$10 $12", fifteen, "v9 v11"],
    ["Price: \\$100", [], "Price: \\"],
    ["$A $$ $ $ARGS", ["a"], "$A $$ $ $ARGS"],
    ["$arguments $Arguments $ARGUMENTS", ["a", "b"], "$arguments $Arguments a b"],
    ["${1:-a}}", [], "a}"],
    ["${1:-$2}", [], "$2"],
    ["${3:-}", [], ""],
    ["Run $1 on ${@:2:2}, then process $@", ["eslint", "f1", "f2", "f3"], "Run eslint on f1 f2, then process eslint f1 f2 f3"],
  ])("%j with %j", (template, args, expected) => {
    expect(substituteArgs(template, args)).toBe(expected);
  });
});

describe("expandPromptTemplate, as pi 1.6.0", () => {
  const templates = [{ name: "review", content: "Review $1 for ${2:-correctness}. All: $@" }];
  it.each([
    ["/review", "Review  for correctness. All: "],
    ["/review src/app.ts", "Review src/app.ts for correctness. All: src/app.ts"],
    ['/review "a b" speed', "Review a b for speed. All: a b speed"],
    ["/review\nmore lines", "Review more for lines. All: more lines"],
    ["/review\tx", "Review x for correctness. All: x"],
    // Not a call of a known template: the text goes as typed.
    ["/reviewx foo", "/reviewx foo"],
    [" /review", " /review"],
    ["hello /review", "hello /review"],
    ["/", "/"],
  ])("%j", (message, expected) => {
    expect(expandPromptTemplate(message, templates)).toBe(expected);
  });
});
