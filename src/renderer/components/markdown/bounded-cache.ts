/**
 * A cache bounded by its number of entries and by their total size in characters (a key's and its value's, as
 * `sizeOf` says), the least recently used going first; the newest entry stays even when it alone is over the limit.
 * The page's markdown caches outlive the chats they were filled in: bounded by count alone, a day of long replies kept
 * megabytes of lexed and highlighted text the page would never show again.
 */
export class BoundedCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private chars = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
    private readonly sizeOf: (key: string, value: V) => number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Characters held, keys and values. */
  get totalChars(): number {
    return this.chars;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old) {
      this.chars -= old.size;
      this.entries.delete(key);
    }
    const size = this.sizeOf(key, value);
    this.entries.set(key, { value, size });
    this.chars += size;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.maxEntries && this.chars <= this.maxChars)) break;
      this.entries.delete(oldest);
      this.chars -= entry.size;
    }
  }
}
