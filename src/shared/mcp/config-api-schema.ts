/**
 * Input schemas of the MCP config methods (config-api.ts), spread into APP_API_SCHEMAS: main checks every call
 * against them before anything else looks at it.
 */
import { Type } from "typebox";
import { KeyedRecord } from "../keyed-record";
import { MAX_MCP_ENTRIES, MAX_MCP_VALUE_CHARS, MCP_SERVER_ID_PATTERN, McpServerConfigSchema } from "./server-config";

/** The largest config text `importMcpServers` takes (a Claude Desktop config is a few KB). */
export const MAX_MCP_IMPORT_CHARS = 1024 * 1024;

const ServerId = Type.String({ pattern: MCP_SERVER_ID_PATTERN });

export const MCP_CONFIG_API_SCHEMAS = {
  saveMcpServer: Type.Tuple([
    McpServerConfigSchema,
    KeyedRecord("^[\\s\\S]{1,200}$", Type.String({ minLength: 1, maxLength: MAX_MCP_VALUE_CHARS }), { maxProperties: MAX_MCP_ENTRIES }),
  ]),
  removeMcpServer: Type.Tuple([ServerId]),
  mcpSecretStatus: Type.Tuple([]),
  importMcpServers: Type.Tuple([Type.String({ minLength: 1, maxLength: MAX_MCP_IMPORT_CHARS })]),
};
