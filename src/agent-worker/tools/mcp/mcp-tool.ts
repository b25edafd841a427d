/**
 * An MCP server's tool as an agent tool: named `<server>__<tool>`, described and parameterised as the server says,
 * and run through main (the worker never reaches the MCP host itself). Stop aborts the call: main passes MCP's
 * cancellation on to the server.
 */
import { Compile } from "typebox/compile";
import type { TSchema } from "typebox";
import type { AgentTool } from "../../../shared/agent/types";
import type { McpCallOutcome, McpCallProgress, McpToolDescriptor } from "../../../shared/protocol/mcp-host-protocol";
import { progressUpdate, toToolResult, type McpResultDetails } from "./mcp-result";

/** Runs one call through main; rejects with a readable Error. */
export type McpCaller = (
  tool: McpToolDescriptor,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  onProgress: (progress: Omit<McpCallProgress, "callId">) => void,
) => Promise<McpCallOutcome>;

/** The longest description passed on to the model (a server could send a book). */
const MAX_DESCRIPTION = 4_000;

export function mcpTool(descriptor: McpToolDescriptor, call: McpCaller): AgentTool<TSchema, McpResultDetails> {
  const source = { server: descriptor.serverName, tool: descriptor.name };
  const description = descriptor.description.trim() || `The tool "${descriptor.name}" of the MCP server "${descriptor.serverName}".`;
  return {
    name: descriptor.agentName,
    label: `${descriptor.serverName}: ${descriptor.label}`,
    description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    parameters: usableSchema(descriptor.inputSchema),
    async execute(_toolCallId, params, signal, onUpdate) {
      if (signal?.aborted) throw new Error("The call was stopped.");
      const args = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
      let outcome: McpCallOutcome;
      try {
        outcome = await call(descriptor, args, signal, (progress) => onUpdate?.(progressUpdate(progress, source)));
      } catch (error) {
        if (signal?.aborted) throw new Error("The call was stopped.", { cause: error });
        throw error;
      }
      // An answer that crossed the user's Stop on its way: the call stands as stopped, as the user saw it.
      if (signal?.aborted) throw new Error("The call was stopped.");
      return toToolResult(outcome, source);
    },
  };
}

/**
 * The server's input schema when the validator can compile it; otherwise any object (the server checks its own
 * arguments anyway), so one odd schema does not make the tool fail every call. The top-level `$schema` and `$id`
 * (a dialect and a name, nothing the model needs) are left out: some providers refuse a tool that has them (zod's
 * JSON Schema output, which many servers send, carries `$schema`).
 */
export function usableSchema(schema: Record<string, unknown>): TSchema {
  const { $schema: _dialect, $id: _name, ...plain } = schema;
  try {
    Compile(plain as TSchema);
    return plain as TSchema;
  } catch {
    return { type: "object", properties: {}, additionalProperties: true } as unknown as TSchema;
  }
}
