import { createContext, useContext } from "react";
import { base64Blob } from "./attachment-files";

/**
 * A chat view's attachments for showing: each fetched from the worker once (`getAttachment`), kept as a Blob with an
 * object URL until the view goes. Files the page just uploaded are seeded, so a sent message shows its images
 * without fetching them back.
 */
export interface AttachmentLoader {
  /** An object URL for the attachment; rejects with the reason it cannot be shown. */
  url(id: string): Promise<string>;
  /** A text attachment's text. */
  text(id: string): Promise<string>;
  /** Bytes the page already holds for `id`. */
  seed(id: string, blob: Blob): void;
  /** Revokes every URL; the loader is not used afterwards. */
  dispose(): void;
}

export function attachmentLoader(fetch: (id: string) => Promise<{ mimeType: string; data: string }>): AttachmentLoader {
  const blobs = new Map<string, Promise<Blob>>();
  const urls = new Map<string, Promise<string>>();
  const made: string[] = [];
  const blob = (id: string): Promise<Blob> => {
    let found = blobs.get(id);
    if (!found) {
      found = fetch(id).then((got) => base64Blob(got.data, got.mimeType));
      // A failed fetch (the connection dropped) is tried again next time.
      found.catch(() => blobs.delete(id));
      blobs.set(id, found);
    }
    return found;
  };
  return {
    url(id) {
      let found = urls.get(id);
      if (!found) {
        found = blob(id).then((b) => {
          const url = URL.createObjectURL(b);
          made.push(url);
          return url;
        });
        found.catch(() => urls.delete(id));
        urls.set(id, found);
      }
      return found;
    },
    text: (id) => blob(id).then((b) => b.text()),
    seed(id, given) {
      if (!blobs.has(id)) blobs.set(id, Promise.resolve(given));
    },
    dispose() {
      for (const url of made) URL.revokeObjectURL(url);
      made.length = 0;
      blobs.clear();
      urls.clear();
    },
  };
}

export const AttachmentsContext = createContext<AttachmentLoader | null>(null);

export function useAttachmentLoader(): AttachmentLoader | null {
  return useContext(AttachmentsContext);
}
