/**
 * The checkpoint store's objects: file contents (blobs) and folder listings (trees), each kept once under the
 * SHA-256 of its bytes, so the same content in two snapshots, two sessions or two workspaces is stored once.
 *
 * Layout under the store's folder (`<data>/checkpoints/`): `objects/<2 hex>/<62 hex>` (raw bytes, no compression:
 * see docs/checkpoints.md), `tmp/` for writes in progress. Every write goes to a new temporary file and is renamed into
 * place, so a reader (another process) never sees a half-written object and two processes writing the same object
 * both succeed. An object found already present is touched (its mtime is the sweep's grace clock), so a sweep running
 * in another process does not remove an object a snapshot is about to reference.
 *
 * Reading a workspace file never follows a symlink and never opens a FIFO, socket or device (O_NOFOLLOW, O_NONBLOCK,
 * and the open handle checked to be a regular file).
 */
import { createHash, randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  utimesSync,
  writeSync,
  type Stats,
} from "node:fs";
import { mkdir, open, rename, rm, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegularFileSync, SAFE_READ_FLAGS } from "../regular-file";

/** Where the system has them (POSIX); Windows has neither and no FIFOs. */
const CHUNK = 1024 * 1024;

/** A regular file read into the store: its blob id, or none when it is larger than the size limit. */
export interface StoredFile {
  /** The blob's id, or null when the file is over the limit (not stored, still recorded). */
  id: string | null;
  /** The open file's own stat, taken before its bytes were read: what the stat cache keys on. */
  stat: Stats;
}

export class ObjectStore {
  readonly objectsDir: string;
  readonly tmpDir: string;
  private readonly madeDirs = new Set<string>();

  constructor(readonly root: string) {
    this.objectsDir = join(root, "objects");
    this.tmpDir = join(root, "tmp");
    mkdirSync(this.objectsDir, { recursive: true });
    mkdirSync(this.tmpDir, { recursive: true });
  }

  pathOf(id: string): string {
    return join(this.objectsDir, id.slice(0, 2), id.slice(2));
  }

  has(id: string): boolean {
    return existsSync(this.pathOf(id));
  }

  read(id: string): Buffer {
    if (!/^[0-9a-f]{64}$/.test(id)) throw new Error(`checkpoints: not an object id: ${id}`);
    return readFileSync(this.pathOf(id));
  }

  /** Stores `bytes` (a tree's JSON); returns its id. */
  writeBytes(bytes: Buffer | string): string {
    const id = createHash("sha256").update(bytes).digest("hex");
    if (this.touchIfPresent(id)) return id;
    const temp = this.tempPath();
    const fd = openSync(temp, "wx");
    try {
      const buffer = typeof bytes === "string" ? Buffer.from(bytes) : bytes;
      writeSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
    this.place(temp, id);
    return id;
  }

  /**
   * Stores the regular file at `abs` (never through a link, never a FIFO): copied to a temporary file while it is
   * hashed, in one pass, so the stored bytes are exactly the hashed ones even if the file changes meanwhile. A file
   * over `maxBytes` is not read. Returns null when `abs` is no longer a regular file (the caller rescans).
   */
  storeFile(abs: string, maxBytes: number): StoredFile | null {
    const opened = openRegularFileSync(abs);
    if (!opened) return null;
    const { fd, stat } = opened;
    try {
      if (stat.size > maxBytes) return { id: null, stat };
      if (stat.size <= CHUNK) {
        const buffer = Buffer.allocUnsafe(stat.size);
        let got = 0;
        while (got < buffer.length) {
          const n = readSync(fd, buffer, got, buffer.length - got, got);
          if (n === 0) break;
          got += n;
        }
        const bytes = got === buffer.length ? buffer : buffer.subarray(0, got);
        return { id: this.writeBytes(bytes), stat };
      }
      return { id: this.copyHashing(fd), stat };
    } finally {
      closeSync(fd);
    }
  }

  /** `writeBytes` with its file work off the event loop. */
  async writeBytesAsync(bytes: Buffer | string): Promise<string> {
    const id = createHash("sha256").update(bytes).digest("hex");
    if (await this.touchIfPresentAsync(id)) return id;
    const temp = this.tempPath();
    await writeFile(temp, bytes, { flag: "wx" });
    await this.placeAsync(temp, id);
    return id;
  }

  /** `storeFile` with its file work off the event loop (hashing stays on it: about 1 ms a megabyte). */
  async storeFileAsync(abs: string, maxBytes: number): Promise<StoredFile | null> {
    let handle;
    try {
      handle = await open(abs, SAFE_READ_FLAGS);
    } catch {
      return null;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return null;
      if (stat.size > maxBytes) return { id: null, stat };
      const hash = createHash("sha256");
      const temp = this.tempPath();
      const out = await open(temp, "wx");
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(stat.size, 1)));
      try {
        let position = 0;
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
          if (bytesRead === 0) break;
          hash.update(buffer.subarray(0, bytesRead));
          await out.write(buffer, 0, bytesRead);
          position += bytesRead;
        }
      } finally {
        await out.close();
      }
      const id = hash.digest("hex");
      if (await this.touchIfPresentAsync(id)) await rm(temp, { force: true });
      else await this.placeAsync(temp, id);
      return { id, stat };
    } finally {
      await handle.close();
    }
  }

  private async touchIfPresentAsync(id: string): Promise<boolean> {
    const now = new Date();
    try {
      await utimes(this.pathOf(id), now, now);
      return true;
    } catch {
      return false;
    }
  }

  private async placeAsync(temp: string, id: string): Promise<void> {
    const dir = join(this.objectsDir, id.slice(0, 2));
    if (!this.madeDirs.has(dir)) {
      await mkdir(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    try {
      await rename(temp, this.pathOf(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(dir, { recursive: true });
      await rename(temp, this.pathOf(id));
    }
  }

  private copyHashing(fd: number): string {
    const hash = createHash("sha256");
    const temp = this.tempPath();
    const out = openSync(temp, "wx");
    const buffer = Buffer.allocUnsafe(CHUNK);
    try {
      let position = 0;
      for (;;) {
        const n = readSync(fd, buffer, 0, CHUNK, position);
        if (n === 0) break;
        hash.update(buffer.subarray(0, n));
        writeSync(out, buffer, 0, n);
        position += n;
      }
    } finally {
      closeSync(out);
    }
    const id = hash.digest("hex");
    if (this.touchIfPresent(id)) rmSync(temp, { force: true });
    else this.place(temp, id);
    return id;
  }

  private touchIfPresent(id: string): boolean {
    const path = this.pathOf(id);
    if (!existsSync(path)) return false;
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      return false; // swept in between: write it again
    }
    return true;
  }

  private place(temp: string, id: string): void {
    const dir = join(this.objectsDir, id.slice(0, 2));
    if (!this.madeDirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      this.madeDirs.add(dir);
    }
    try {
      renameSync(temp, this.pathOf(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      // The fan-out folder was swept by another process: make it again.
      mkdirSync(dir, { recursive: true });
      renameSync(temp, this.pathOf(id));
    }
  }

  tempPath(): string {
    return join(this.tmpDir, `${process.pid}-${randomBytes(8).toString("hex")}`);
  }
}
