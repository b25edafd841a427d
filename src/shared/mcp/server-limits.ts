/**
 * The shapes and limits of an MCP server config (server-config.ts holds the schema made of them). Plain constants, no
 * typebox: pages check drafts against the same ones (server-fields.ts, chat-options.ts).
 */

/**
 * A server's id: lower-case letters, digits and hyphens, starting with a letter or digit. Fixed once the server is
 * added (its secrets are stored under it); the runtime prefixes its tools' names with it, so it stays short.
 */
export const MCP_SERVER_ID_PATTERN = "^[a-z0-9][a-z0-9-]{0,39}$";
/** An environment variable's name. */
export const MCP_ENV_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]{0,199}$";
/** An HTTP header's name (RFC 9110's token characters). */
export const MCP_HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$";
/** How many servers Settings keep, and how many env variables, headers and arguments one may have. */
export const MAX_MCP_SERVERS = 50;
export const MAX_MCP_ENTRIES = 100;
export const MAX_MCP_ARGS = 200;
/** The longest value of an argument, env variable or header (plain or secret). */
export const MAX_MCP_VALUE_CHARS = 10_000;
