import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares in constant time, whatever was presented: both sides are hashed first, so neither the comparison nor an
 * early length check tells a guesser how close, or how long, a guess was.
 */
export function tokenMatches(presented: string | null | undefined, token: string): boolean {
  if (typeof presented !== "string") return false;
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}
