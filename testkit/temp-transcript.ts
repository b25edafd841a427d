/**
 * A transcript file in a fresh temporary folder for each test: registers vitest's `beforeEach`/`afterEach` (call it at
 * the top of a test file), so every test starts with no file and leaves nothing behind. The fields change per test:
 * read them inside a test, never capture them at load time.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { TranscriptWriter, type TranscriptRecord } from "../src/shared-node/session-files/transcript-store";

export interface TempTranscript {
  /** This test's temporary folder. */
  readonly dir: string;
  /** The transcript's path in it (not created until written). */
  readonly file: string;
  /** Appends `records` through a `TranscriptWriter`, as a worker does, and closes it. */
  write(...records: TranscriptRecord[]): Promise<void>;
}

/** `prefix` names the temporary folder; `path` is the transcript's path inside it (parent folders made on write). */
export function useTempTranscript(prefix: string, path = "s1.jsonl"): TempTranscript {
  const temp = {
    dir: "",
    file: "",
    async write(...records: TranscriptRecord[]): Promise<void> {
      const writer = await TranscriptWriter.open(temp.file);
      await writer.append(...records);
      await writer.close();
    },
  };
  beforeEach(async () => {
    temp.dir = await mkdtemp(join(tmpdir(), prefix));
    temp.file = join(temp.dir, path);
  });
  afterEach(async () => {
    await rm(temp.dir, { recursive: true, force: true });
  });
  return temp;
}
