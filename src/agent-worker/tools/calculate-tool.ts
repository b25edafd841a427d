import { Type } from "typebox";
import type { AgentTool } from "../../shared/agent/types";

const parameters = Type.Object({
  expression: Type.String({ maxLength: 500, description: "Arithmetic with + - * / % ^, parentheses and decimals." }),
});

/** Evaluates arithmetic exactly as written (models are bad at it). A small parser: never `eval`. */
export const calculateTool: AgentTool<typeof parameters, { value: number }> = {
  name: "calculate",
  label: "Calculate",
  description: "Evaluate an arithmetic expression, e.g. (12.5 * 4) / 3 ^ 2.",
  parameters,
  async execute(_id, params) {
    const value = evaluate(params.expression);
    return { content: [{ type: "text", text: `${params.expression} = ${value}` }], details: { value } };
  },
};

/** Recursive descent over + - * / % ^ and parentheses. Throws a readable Error on anything else. */
export function evaluate(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/%^()]|\S/g) ?? [];
  let pos = 0;
  const peek = () => tokens[pos];
  const take = () => tokens[pos++];
  function primary(): number {
    const t = take();
    if (t === "(") {
      const v = sum();
      if (take() !== ")") throw new Error("Missing )");
      return v;
    }
    if (t === "-") return -primary();
    if (t !== undefined && /^\d/.test(t)) return Number(t);
    throw new Error(`Unexpected ${t === undefined ? "end of expression" : `"${t}"`}`);
  }
  function power(): number {
    const base = primary();
    if (peek() === "^") {
      take();
      return base ** power();
    }
    return base;
  }
  function product(): number {
    let v = power();
    while (peek() === "*" || peek() === "/" || peek() === "%") {
      const op = take();
      const r = power();
      v = op === "*" ? v * r : op === "/" ? v / r : v % r;
    }
    return v;
  }
  function sum(): number {
    let v = product();
    while (peek() === "+" || peek() === "-") v = take() === "+" ? v + product() : v - product();
    return v;
  }
  const result = sum();
  if (pos !== tokens.length) throw new Error(`Unexpected "${tokens[pos]}"`);
  if (!Number.isFinite(result)) throw new Error("The result is not a finite number");
  return result;
}
