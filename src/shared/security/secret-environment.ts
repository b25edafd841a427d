/**
 * The one rule for which environment variables (and MCP headers) hold secrets, and the environment built from it
 * for every process Paddock starts: main gives workers and the MCP host an environment without provider keys or
 * secret-looking variables (`main/broker/worker-process.ts`), and a worker gives the commands its tools run (bash,
 * sandboxed or not; ripgrep) one without them either (`commandEnvironment`). Keys reach a worker only through
 * main's `getApiKey`; a command never sees one, so `printenv` cannot hand one to the model.
 *
 * Pure functions over a record of strings: no Node, so main, the workers and the page share the very same list.
 */

/**
 * Name parts that say "secret", matched on the name upper-cased with hyphens read as underscores (so headers such
 * as `X-Api-Key` and lower-case variables such as `npm_config__authToken` are judged alike). They cover every
 * variable pi-ai reads a provider's key or credentials from (`*_API_KEY`, `*_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
 * `AWS_BEARER_TOKEN_BEDROCK`, `GOOGLE_APPLICATION_CREDENTIALS`...; test/unit/shared/security/secret-environment.test.ts checks this
 * against pi-ai's own source) and the usual names of other secrets. Parts are bounded by underscores where a bare
 * substring would catch harmless names: `TOKENIZERS_PARALLELISM`, `GIT_AUTHOR_NAME`, `KEYBOARD`, `PWD`.
 */
const SECRET_NAME_PARTS = [
  /TOKEN(?!IZ)/, // *_TOKEN, *_TOKEN_*, AUTHTOKEN, HF_TOKEN, GH_TOKEN, *_SESSION_TOKEN; not TOKENIZERS_*
  /SECRET/, // *_SECRET, *_SECRET_*, CLIENT_SECRET
  /PASSW|PASSPHRASE|SSHPASS|(^|_)PASS(_|$)|_PWD$/, // *PASSWORD*, PASSWD, DB_PASS, MYSQL_PWD; not PWD, OLDPWD
  /CREDENTIAL/, // *CREDENTIALS*, AWS_CONTAINER_CREDENTIALS_*
  /API_?KEY|ACCESS_?KEY|PRIVATE|(^|_)KEYS?(_|$)/, // *_API_KEY, *_ACCESS_KEY*, *_KEY, *_KEY_ID, PRIVATE_KEY
  /(^|_)AUTH(_|$|ORIZATION|TOKEN|KEY)/, // AUTH_*, *_AUTH, Authorization; not GIT_AUTHOR_*, XAUTHORITY
  /COOKIE|BEARER|SIGNATURE|WEBHOOK|CONNECTION_?STRING|(^|_)(PAT|DSN)$/, // GITHUB_PAT, SENTRY_DSN, SLACK_WEBHOOK_URL
];

/** Names the parts above catch that hold no secret and that commands need: the SSH agent's socket path. */
const NOT_SECRET = new Set(["SSH_AUTH_SOCK"]);

/**
 * Whether a variable's (or header's) name says its value is a secret: a key, token, password, credential, cookie.
 * MCP's Settings mark such entries secret by default; no command ever sees such a variable.
 */
export function looksSecret(name: string): boolean {
  const normalized = name.toUpperCase().replace(/-/g, "_");
  return !NOT_SECRET.has(normalized) && SECRET_NAME_PARTS.some((part) => part.test(normalized));
}

/** `scheme://user:password@` in a value: the user part, up to the last `@` before the host's end. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*(?:@[^\s/?#@]*)*@/gi;

/**
 * `value` with the user and password taken out of every URL in it (`http://user:pass@proxy:3128` becomes
 * `http://proxy:3128`): proxies' addresses, `DATABASE_URL`, package indexes may carry credentials in any variable.
 */
export function withoutUrlCredentials(value: string): string {
  return value.replace(URL_USERINFO, "$1");
}

/** The usual proxy variables (either case): the address of the user's proxy, credentials and all. */
export function isProxyVariable(name: string): boolean {
  return /^(HTTPS?|ALL|FTP)_PROXY$/.test(name.toUpperCase());
}

export interface ScrubOptions {
  /** Secret-looking variables to pass on after all (a worker's cloud credentials, main/broker/worker-process.ts). */
  keep?(name: string): boolean;
  /** Variables whose URLs keep their credentials (the process's own proxies). Default: none. */
  keepUrlCredentials?(name: string): boolean;
}

/**
 * `env` without the variables that look secret (`looksSecret`) and with credentials taken out of URLs
 * (`withoutUrlCredentials`), unless `options` say otherwise; unset values dropped. A new record; `env` is untouched.
 */
export function scrubEnvironment(env: Readonly<Record<string, string | undefined>>, options: ScrubOptions = {}): Record<string, string> {
  const scrubbed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (looksSecret(name) && !options.keep?.(name)) continue;
    scrubbed[name] = options.keepUrlCredentials?.(name) ? value : withoutUrlCredentials(value);
  }
  return scrubbed;
}

/**
 * The environment for a command a tool runs (bash, sandboxed or not; ripgrep): `env` with no secret-looking
 * variable at all and no credentials in any URL, proxies included. Whatever a command can print reaches the model.
 */
export function commandEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return scrubEnvironment(env);
}
