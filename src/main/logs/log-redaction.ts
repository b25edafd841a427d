/**
 * What a log line must never carry: API keys, tokens, passwords. The rules are the app's own for secrets
 * (`shared/security/secret-environment.ts`: a name that `looksSecret` holds a secret, a URL's user part is a
 * credential), applied to text: `NAME=value`, `"name": "value"` and `Name: value` with a secret-looking name lose
 * the value, URLs lose their credentials, `Bearer …` loses its token; plus the shapes of the usual providers' keys,
 * and the very values main holds (saved keys, secret-looking environment variables), wherever they appear.
 */
import { looksSecret, withoutUrlCredentials } from "../../shared/security/secret-environment";

export const REDACTED = "<redacted>";

/** The shapes of common keys and tokens (OpenAI/Anthropic `sk-…`, Google `AIza…`, GitHub, Slack, AWS, Hugging Face, GitLab). */
const KEY_SHAPES = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
];

/** `Bearer <token>` / `Basic <credentials>` (an Authorization header printed in an error). */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/**
 * `name=value`, `name: value`, `"name": "value"`, `'name': 'value'`: the name and what follows up to the value's end
 * (a quote's closing quote, else whitespace, a comma, `;` or a closing bracket). Names start at a word's start and are
 * bounded, so a long line costs linear time.
 */
const NAMED_VALUE = /(?<![A-Za-z0-9_.-])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,80})\1(\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,;}\])]+)/g;

/** Values shorter than this are not searched for as known secrets (a one-letter "key" would blank every line). */
const MIN_KNOWN_SECRET = 8;

export interface Redactor {
  (text: string): string;
}

/** A redactor that also hides the values `known()` returns (read at each call: saved keys change while the app runs). */
export function logRedactor(known: () => Iterable<string> = () => []): Redactor {
  return (text) => {
    let out = text;
    for (const secret of known()) {
      if (secret.length >= MIN_KNOWN_SECRET && out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    out = withoutUrlCredentials(out);
    out = out.replace(AUTH_SCHEME, (_whole, scheme: string) => `${scheme} ${REDACTED}`);
    out = out.replace(NAMED_VALUE, (whole, quote: string, name: string, separator: string, value: string) => {
      // A count ("tokens=1200") is no secret; `Authorization: Bearer <redacted>` is done already.
      if (!looksSecret(name) || value.startsWith("<") || /^\d+$/.test(value) || /^(Bearer|Basic)$/i.test(value)) return whole;
      const quoted = value.startsWith('"') || value.startsWith("'") ? `${value[0]}${REDACTED}${value[0]}` : REDACTED;
      return `${quote}${name}${quote}${separator}${quoted}`;
    });
    for (const shape of KEY_SHAPES) out = out.replace(shape, REDACTED);
    return out;
  };
}

/** The values of `env`'s secret-looking variables (`looksSecret`): what a process may print by mistake. */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (value && looksSecret(name) ? [value] : []));
}
