/**
 * Tool-call argument validation exactly as pi-agent-core 0.73.1 does it, through pi-ai 0.73.1's
 * `validateToolArguments` (MIT, Mario Zechner; ported here unchanged in behaviour): TypeBox's `Value.Convert`, then
 * pi's coercion for plain JSON Schemas, then TypeBox's compiled check, and on failure the same text, word for word
 * ("  - text: must have required properties text"). pi-ai 1.6.0 validates with its own pi-schema and words failures
 * differently ("  - text: missing"); the model reads this text, and the Agent keeps pi-agent-core 0.73.1's
 * behaviour (docs/architecture.md), so the Agent validates as 0.73.1 did.
 */
import { Compile, type Validator } from "typebox/compile";
import { Value } from "typebox/value";
import type { TSchema } from "typebox";

type JsonSchema = Record<string, unknown>;
interface ToolLike {
  parameters: unknown;
}
interface CallLike {
  name: string;
  arguments: unknown;
}

const validatorCache = new WeakMap<object, Validator>();
const TYPEBOX_KIND = Symbol.for("TypeBox.Kind");

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function hasTypeBoxMetadata(schema: unknown): boolean {
  return isRecord(schema) && Object.getOwnPropertySymbols(schema).includes(TYPEBOX_KIND);
}

function schemaTypes(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((type): type is string => typeof type === "string");
  return [];
}

function matchesJsonType(value: unknown, type: string): boolean {
  switch (type) {
    case "number":
      return typeof value === "number";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value) && !Array.isArray(value);
    default:
      return false;
  }
}

function subSchemaValidator(schema: unknown): Validator | undefined {
  if (!isRecord(schema)) return undefined;
  try {
    return validator(schema);
  } catch {
    return undefined;
  }
}

function coercePrimitive(value: unknown, type: string): unknown {
  switch (type) {
    case "number":
    case "integer": {
      if (value === null) return 0;
      if (typeof value === "string" && value.trim() !== "") {
        const parsed = Number(value);
        if (type === "number" ? Number.isFinite(parsed) : Number.isInteger(parsed)) return parsed;
      }
      if (typeof value === "boolean") return value ? 1 : 0;
      return value;
    }
    case "boolean": {
      if (value === null) return false;
      if (value === "true" || value === 1) return true;
      if (value === "false" || value === 0) return false;
      return value;
    }
    case "string": {
      if (value === null) return "";
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      return value;
    }
    case "null":
      return value === "" || value === 0 || value === false ? null : value;
    default:
      return value;
  }
}

function coerceObject(value: Record<string, unknown>, schema: JsonSchema): void {
  const properties = isRecord(schema.properties) ? schema.properties : undefined;
  const defined = new Set(properties ? Object.keys(properties) : []);
  if (properties) {
    for (const [key, propertySchema] of Object.entries(properties)) {
      if (key in value && isRecord(propertySchema)) value[key] = coerce(value[key], propertySchema);
    }
  }
  if (isRecord(schema.additionalProperties)) {
    for (const [key, propertyValue] of Object.entries(value)) {
      if (!defined.has(key)) value[key] = coerce(propertyValue, schema.additionalProperties);
    }
  }
}

function coerceArray(value: unknown[], schema: JsonSchema): void {
  if (Array.isArray(schema.items)) {
    for (let index = 0; index < value.length; index++) {
      const itemSchema: unknown = schema.items[index];
      if (isRecord(itemSchema)) value[index] = coerce(value[index], itemSchema);
    }
    return;
  }
  if (isRecord(schema.items)) for (let index = 0; index < value.length; index++) value[index] = coerce(value[index], schema.items);
}

function coerceUnion(value: unknown, schemas: unknown[]): unknown {
  for (const schema of schemas) {
    if (!isRecord(schema)) continue;
    const coerced = coerce(structuredClone(value), schema);
    if (subSchemaValidator(schema)?.Check(coerced)) return coerced;
  }
  return value;
}

function coerce(value: unknown, schema: JsonSchema): unknown {
  let next = value;
  if (Array.isArray(schema.allOf)) for (const nested of schema.allOf) if (isRecord(nested)) next = coerce(next, nested);
  if (Array.isArray(schema.anyOf)) next = coerceUnion(next, schema.anyOf);
  if (Array.isArray(schema.oneOf)) next = coerceUnion(next, schema.oneOf);
  const types = schemaTypes(schema);
  const matchesUnionMember = types.length > 1 && types.some((type) => matchesJsonType(next, type));
  if (types.length > 0 && !matchesUnionMember) {
    for (const type of types) {
      const candidate = coercePrimitive(next, type);
      if (candidate !== next) {
        next = candidate;
        break;
      }
    }
  }
  if (types.includes("object") && isRecord(next) && !Array.isArray(next)) coerceObject(next, schema);
  if (types.includes("array") && Array.isArray(next)) coerceArray(next, schema);
  return next;
}

function validator(schema: object): Validator {
  let cached = validatorCache.get(schema);
  if (!cached) {
    cached = Compile(schema as TSchema) as Validator;
    validatorCache.set(schema, cached);
  }
  return cached;
}

function formatPath(error: { keyword: string; instancePath: string; params: unknown }): string {
  const path = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (error.keyword === "required") {
    const required = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0];
    if (required) return path ? `${path}.${required}` : required;
  }
  return path || "root";
}

/** The call's arguments, converted and checked against the tool's schema; throws pi's text when they do not fit. */
export function validateToolArguments(tool: ToolLike, toolCall: CallLike): any {
  const args: unknown = structuredClone(toolCall.arguments);
  const schema = tool.parameters as object;
  Value.Convert(schema as TSchema, args);
  const check = validator(schema);
  if (!hasTypeBoxMetadata(schema) && isRecord(schema)) {
    const coerced = coerce(args, schema);
    if (coerced !== args) {
      if (isRecord(args) && isRecord(coerced)) {
        for (const key of Object.keys(args)) delete args[key];
        Object.assign(args, coerced);
      } else {
        return check.Check(coerced) ? coerced : args;
      }
    }
  }
  if (check.Check(args)) return args;
  const errors =
    [...check.Errors(args)].map((error) => `  - ${formatPath(error)}: ${error.message}`).join("\n") || "Unknown validation error";
  throw new Error(
    `Validation failed for tool "${toolCall.name}":\n${errors}\n\nReceived arguments:\n${JSON.stringify(toolCall.arguments, null, 2)}`,
  );
}
