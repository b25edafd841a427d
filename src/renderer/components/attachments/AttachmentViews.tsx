import { memo, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { attachmentKind, formatBytes, type AttachmentRef } from "../../../shared/protocol/attachments";
import { errorText } from "../../../shared/error-text";
import { FileIcon } from "../common/icons";
import { useAttachmentLoader } from "./attachment-loader";
import type { PendingAttachment } from "./attachment-files";

/** An object URL for `blob` while the component shows it. */
function useObjectUrl(blob: Blob): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}

interface ComposerAttachmentsProps {
  items: readonly PendingAttachment[];
  onRemove(key: string): void;
}

/** The composer's attachments before sending: image thumbnails and file chips, each removable. */
export function ComposerAttachments({ items, onRemove }: ComposerAttachmentsProps) {
  if (items.length === 0) return null;
  return (
    <ul className="attachment-strip composer-attachments" aria-label="Attachments">
      {items.map((item) => (
        <li key={item.key} className={`attachment attachment-${item.kind}`} data-testid="composer-attachment" title={`${item.name} · ${formatBytes(item.size)}`}>
          {item.kind === "image" ? <LocalThumbnail blob={item.file} name={item.name} /> : <FileChip name={item.name} size={item.size} />}
          <button type="button" className="attachment-remove" onClick={() => onRemove(item.key)} aria-label={`Remove ${item.name}`}>✕</button>
        </li>
      ))}
    </ul>
  );
}

function LocalThumbnail({ blob, name }: { blob: Blob; name: string }) {
  const url = useObjectUrl(blob);
  return <span className="attachment-thumb">{url ? <img src={url} alt={name} /> : null}</span>;
}

function FileChip({ name, size }: { name: string; size: number }) {
  return (
    <span className="attachment-file">
      <FileIcon />
      <span className="attachment-name">{name}</span>
      <span className="attachment-size">{formatBytes(size)}</span>
    </span>
  );
}

/**
 * A sent message's attachments: thumbnails that open the whole image, and file chips that show the text. The
 * bytes come from the chat's AttachmentLoader (the worker's `getAttachment`), fetched when the row first shows.
 */
export const MessageAttachments = memo(function MessageAttachments({ refs }: { refs: readonly AttachmentRef[] }) {
  const [opened, setOpened] = useState<AttachmentRef | null>(null);
  if (refs.length === 0) return null;
  return (
    <>
      <ul className="attachment-strip message-attachments" aria-label="Attachments">
        {refs.map((ref, i) => (
          <li key={`${ref.id}-${i}`} className={`attachment attachment-${attachmentKind(ref)}`} data-testid="message-attachment">
            <button type="button" className="attachment-open" onClick={() => setOpened(opened === ref ? null : ref)}
              title={`${ref.name} · ${formatBytes(ref.size)}`} aria-expanded={attachmentKind(ref) === "text" ? opened === ref : undefined}>
              {attachmentKind(ref) === "image" ? <StoredThumbnail item={ref} /> : <FileChip name={ref.name} size={ref.size} />}
            </button>
          </li>
        ))}
      </ul>
      {opened && attachmentKind(opened) === "text" ? <TextPreview item={opened} /> : null}
      {opened && attachmentKind(opened) === "image" ? <ImageViewer item={opened} onClose={() => setOpened(null)} /> : null}
    </>
  );
});

/** What a stored attachment's URL or text is, as it loads. */
function useStored(ref: AttachmentRef, what: "url" | "text"): { value?: string; failure?: string } {
  const loader = useAttachmentLoader();
  const [state, setState] = useState<{ value?: string; failure?: string }>({});
  useEffect(() => {
    if (!loader) return setState({ failure: "not available here" });
    let live = true;
    loader[what](ref.id).then(
      (value) => live && setState({ value }),
      (error: unknown) => live && setState({ failure: errorText(error) }),
    );
    return () => {
      live = false;
    };
  }, [loader, ref.id, what]);
  return state;
}

function StoredThumbnail({ item }: { item: AttachmentRef }) {
  const { value, failure } = useStored(item, "url");
  return (
    <span className={`attachment-thumb${failure ? " attachment-missing" : ""}`} title={failure ? `${item.name}: ${failure}` : undefined}>
      {value ? <img src={value} alt={item.name} /> : failure ? <span className="attachment-missing-text">Image unavailable</span> : null}
    </span>
  );
}

/** How much of a text file the message shows; the model got all of it. */
const PREVIEW_CHARS = 20_000;

function TextPreview({ item }: { item: AttachmentRef }) {
  const { value, failure } = useStored(item, "text");
  return (
    <div className="attachment-preview" data-testid="attachment-preview">
      <div className="tool-section-label">{item.name}</div>
      {failure ? <div className="muted">Could not load it: {failure}</div> : (
        <pre className="tool-pre">{value === undefined ? "Loading…" : value.length > PREVIEW_CHARS ? `${value.slice(0, PREVIEW_CHARS)}\n…` : value}</pre>
      )}
    </div>
  );
}

/**
 * The whole image over the page (in a portal: a list row is transformed, which would trap a fixed overlay inside
 * it); a click or Esc closes it, and Esc does not reach the chat's Stop.
 */
function ImageViewer({ item, onClose }: { item: AttachmentRef; onClose(): void }) {
  const { value, failure } = useStored(item, "url");
  return createPortal(
    <div className="image-viewer" role="dialog" aria-label={item.name} onClick={onClose}
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault();
        onClose();
      }}>
      {value ? <img src={value} alt={item.name} /> : <span>{failure ?? "Loading…"}</span>}
      <button type="button" className="btn btn-secondary image-viewer-close" autoFocus onClick={onClose}>Close</button>
    </div>,
    document.body,
  );
}
