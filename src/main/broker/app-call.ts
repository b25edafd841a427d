/**
 * The one gate for page -> main calls: checks the method name and its arguments against APP_API_SCHEMAS, then
 * calls the service. Rejects with a readable Error; never lets a malformed call reach the service.
 */
import { Value } from "typebox/value";
import { APP_API_SCHEMAS, isAppMethod } from "../../shared/protocol/app-api-schema";
import { schemaErrors } from "../../shared/schema-errors";
import type { AppApi } from "../../shared/protocol/app-api";

export async function dispatchAppCall(api: AppApi, method: unknown, args: unknown): Promise<unknown> {
  if (!isAppMethod(method)) throw new Error(`Unknown call: ${String(method).slice(0, 60)}`);
  const list = Array.isArray(args) ? args : [];
  const schema = APP_API_SCHEMAS[method];
  if (!Array.isArray(args) || !Value.Check(schema, list)) {
    // Led by the field's path ("0.customProviders.1.id: …"), so a page can say which field it was.
    const first = Array.isArray(args) ? schemaErrors(schema, list, "arguments")[0] : undefined;
    throw new Error(`${method}: invalid arguments${first ? `: ${first}` : ""}`);
  }
  return (api[method] as (...a: unknown[]) => Promise<unknown>)(...list);
}
