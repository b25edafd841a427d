import { lstat } from "node:fs/promises";
import { sep } from "node:path";
import { IMAGE_TYPES, MAX_IMAGE_BYTES, MAX_TEXT_FILE_BYTES, TEXT_MIME_TYPE, formatBytes } from "../../../shared/protocol/attachments";
import {
  MAX_FILE_MATCHES,
  MAX_FOLDER_LISTING_LINES,
  MAX_LISTED_FILES,
  type WorkspaceEntry,
  type WorkspaceFileMatches,
} from "../../../shared/protocol/workspace-files";
import { rankPaths } from "../../../shared/mentions/path-ranking";
import { imageType, isText } from "../../host/attachments/attachment-store";
import { openFileForReading } from "./checked-open";
import { COMMON_RG_FLAGS, EXCLUDE_GIT_DIR, runRipgrep } from "./ripgrep";
import { openSearchTarget } from "./search-target";
import type { WorkspacePaths } from "./workspace-paths";

/** How long a listing is reused: the menu asks on every key; a file made since shows within this time. */
const LISTING_TTL_MS = 3_000;

/** A file or folder read for a message, ready for the attachment store. */
export interface ReadEntry {
  /** Its path relative to the workspace (a folder's with a trailing "/"). */
  name: string;
  mimeType: string;
  base64: string;
}

interface Listing {
  entries: WorkspaceEntry[];
  files: number;
  truncated: boolean;
}

/**
 * The composer's `@` for one workspace: its files and folders listed (ripgrep's walk: `.gitignore` and `.ignore`
 * rules, dotfiles, never `.git`, private folders left out; capped), ranked for what is typed, and a chosen one read
 * for a message as pi's `@file` arguments are: a text file whole, an image as an image, a folder as its listing.
 * Every path goes through the workspace's gate (WorkspacePaths) and is opened checked (checked-open.ts), as the
 * file tools' are: `..`, absolute paths elsewhere, `~` and symlinks that lead out are refused, with the reason.
 */
export class WorkspaceFiles {
  private listing: { at: number; result: Promise<Listing> } | undefined;

  constructor(private readonly paths: WorkspacePaths) {}

  /** The best `limit` matches for `query` (see rankPaths). */
  async search(query: string, limit = MAX_FILE_MATCHES): Promise<WorkspaceFileMatches> {
    const listing = await this.list();
    return { entries: rankPaths(listing.entries, query, Math.min(limit, MAX_FILE_MATCHES)), files: listing.files, truncated: listing.truncated };
  }

  /** The workspace's files and the folders on their way, listed at most every LISTING_TTL_MS. */
  list(): Promise<Listing> {
    const now = Date.now();
    if (!this.listing || now - this.listing.at > LISTING_TTL_MS) {
      const result = this.walk(".", MAX_LISTED_FILES);
      this.listing = { at: now, result };
      result.catch(() => {
        if (this.listing?.result === result) this.listing = undefined; // the next ask tries again
      });
    }
    return this.listing.result;
  }

  /**
   * Reads `input` (a path relative to the workspace, as the menu offered it, or typed) for a message. Rejects with a
   * sentence when it leads out of the workspace or into a private folder, is missing, is too large, or is neither
   * text nor an image (a binary file is never read into a message).
   */
  async read(input: string): Promise<ReadEntry> {
    const spelled = input.trim();
    if (!spelled) throw new Error("Name a file or folder of the workspace.");
    const real = await this.paths.resolveForReading(spelled);
    const shown = this.paths.display(real);
    const info = await lstat(real).catch(() => undefined);
    if (!info) throw new Error(`${shown} is not in the workspace (it may have been moved or deleted).`);
    if (info.isDirectory()) {
      const { entries, files, truncated } = await this.walk(spelled, MAX_FOLDER_LISTING_LINES, real);
      const prefix = shown === "." ? "" : `${shown}/`;
      const lines = entries.map((e) => `${prefix}${e.path}${e.kind === "folder" ? "/" : ""}`);
      const head = `Folder ${prefix || "./"}: ${files} file${files === 1 ? "" : "s"}${truncated ? ` (the first ${MAX_FOLDER_LISTING_LINES} listed)` : ""}, ignored files left out.`;
      return { name: prefix || "workspace-listing.txt", mimeType: TEXT_MIME_TYPE, base64: Buffer.from([head, ...lines].join("\n"), "utf8").toString("base64") };
    }
    const { handle, info: opened } = await openFileForReading(this.paths, spelled, real);
    try {
      if (opened.size > MAX_IMAGE_BYTES) throw new Error(`${shown} is ${formatBytes(opened.size)}: a file attached with @ can be at most ${formatBytes(MAX_TEXT_FILE_BYTES)} (an image ${formatBytes(MAX_IMAGE_BYTES)}).`);
      const bytes = await handle.readFile();
      const image = imageType(bytes);
      if (image && IMAGE_TYPES[image]) return { name: shown, mimeType: image, base64: bytes.toString("base64") };
      if (bytes.length > MAX_TEXT_FILE_BYTES) throw new Error(`${shown} is ${formatBytes(bytes.length)}: a text file attached with @ can be at most ${formatBytes(MAX_TEXT_FILE_BYTES)}.`);
      if (!isText(bytes)) throw new Error(`${shown} is a binary file: only text files and PNG, JPEG, GIF or WebP images can be attached. Nothing was read into the message.`);
      return { name: shown, mimeType: TEXT_MIME_TYPE, base64: bytes.toString("base64") };
    } finally {
      await handle.close();
    }
  }

  /**
   * Files below `input` (the workspace by default) and the folders on their way, paths relative to it, sorted; at most
   * `cap` files. `real`: the gate's path for `input` (taken again when absent).
   */
  private async walk(input: string, cap: number, real?: string): Promise<Listing> {
    const from = real ?? (await this.paths.resolveForReading(input));
    const target = await openSearchTarget(this.paths, input, from, false);
    const files: string[] = [];
    const folders = new Set<string>();
    let truncated = false;
    try {
      const run = await runRipgrep([...COMMON_RG_FLAGS, "--files", ...EXCLUDE_GIT_DIR, "--", target.path], target.cwd, (line) => {
        if (!line) return true;
        if (files.length >= cap) {
          truncated = true;
          return false;
        }
        const relative = (line.startsWith(`.${sep}`) ? line.slice(2) : line).split(sep).join("/");
        if (this.paths.privateReason(target.realOf(line), "read")) return true;
        files.push(relative);
        for (let slash = relative.indexOf("/"); slash > 0; slash = relative.indexOf("/", slash + 1)) folders.add(relative.slice(0, slash));
        return true;
      });
      await target.recheck();
      if (run.code === 2 && files.length === 0) throw new Error(run.stderr.trim() || "ripgrep could not list the workspace");
    } finally {
      await target.close();
    }
    const entries: WorkspaceEntry[] = [
      ...[...folders].map((path) => ({ path, kind: "folder" as const })),
      ...files.map((path) => ({ path, kind: "file" as const })),
    ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { entries, files: files.length, truncated };
  }
}
