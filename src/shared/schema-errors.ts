/**
 * Typebox's complaints about a value, as lines a user can act on ("abort.requestTimeoutMs: must be >= 5000"). One
 * wording for every file and input Paddock checks against a schema. Pure: no Node, DOM or Electron.
 */
import type { TSchema } from "typebox";
import { Value } from "typebox/value";

/**
 * One readable line per problem of `value` against `schema`, each led by the field's dotted path (`root` for the
 * value itself); empty when the value is valid. Never throws.
 */
export function schemaErrors(schema: TSchema, value: unknown, root: string): string[] {
  if (Value.Check(schema, value)) return [];
  const lines = new Set<string>();
  for (const error of Value.Errors(schema, value)) {
    const where = error.instancePath === "" ? root : error.instancePath.slice(1).replaceAll("/", ".");
    if (error.keyword === "boolean") continue; // restated by the additionalProperties error below
    if (error.keyword === "additionalProperties") {
      const names: string[] = error.params.additionalProperties;
      // A record (patternProperties) names keys that are data, perhaps hostile: quoted and cut short.
      if (isRecordSchema(schemaAt(schema, error.schemaPath))) lines.add(`${where}: key(s) not allowed: ${names.map((n) => JSON.stringify(n.slice(0, 100))).join(", ")}`);
      else lines.add(`${where}: unknown field(s) ${names.join(", ")}`);
    } else if (error.keyword === "enum") {
      lines.add(`${where}: must be one of ${error.params.allowedValues.map((v: unknown) => JSON.stringify(v)).join(", ")}`);
    } else if (error.keyword === "const") {
      // Constants are format versions: saying which one the file has tells "from a newer Paddock" from nonsense.
      const found = JSON.stringify(valueAt(value, error.instancePath));
      lines.add(`${where}: must be ${JSON.stringify(error.params.allowedValue)} (this file says ${found})`);
    } else {
      lines.add(`${where}: ${error.message}`);
    }
  }
  return [...lines];
}

/** The part of `schema` a JSON pointer (`#/properties/a`) names; undefined when there is none. */
function schemaAt(schema: TSchema, pointer: string): unknown {
  return valueAt(schema, pointer.replace(/^#/, ""));
}

function isRecordSchema(schema: unknown): boolean {
  return typeof schema === "object" && schema !== null && "patternProperties" in schema;
}

function valueAt(value: unknown, pointer: string): unknown {
  let at = value;
  for (const part of pointer.split("/").slice(1)) {
    const key = part.replaceAll("~1", "/").replaceAll("~0", "~");
    at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}
