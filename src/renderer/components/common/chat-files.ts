/**
 * A chat to a file and back, the same from the sidebar and the chat's header: the desktop app has main show the
 * system's save dialog and write the file; the browser host hands the page the file to download. Importing reads a
 * Paddock JSON export the user picked and gives it to main, which checks it whole before making the chat.
 */
import type { AppServices } from "../../services/app-services";
import type { ChatExportFormat, SessionSummary } from "../../../shared/protocol/app-api";
import { MAX_IMPORT_CHARS } from "../../../shared/protocol/app-api-schema";

/** Saves the chat's export where the user says (desktop) or downloads it (browser). Rejects with a readable Error. */
export async function saveChatExport(services: AppServices, sessionId: string, format: ChatExportFormat): Promise<void> {
  if (services.saveDialog) {
    await services.app.saveSessionExport(sessionId, format);
    return;
  }
  const file = await services.app.exportSession(sessionId, format);
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = file.fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the time the click returns; the URL only has to outlive it a little.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A new chat from a Paddock JSON export file. Rejects with a readable Error (main says what is wrong with a bad file). */
export async function importChatFile(services: AppServices, file: File): Promise<SessionSummary> {
  if (file.size > MAX_IMPORT_CHARS) throw new Error(`${file.name} is too large to be a chat export (over ${MAX_IMPORT_CHARS / 1024 / 1024} MB).`);
  const text = await file.text();
  if (text.trim() === "") throw new Error(`${file.name} is empty.`);
  return services.app.importSession(text);
}
