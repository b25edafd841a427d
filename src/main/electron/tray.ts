/**
 * The tray (the menu bar on macOS) while the app runs with no window for its schedules: an icon with "Open Paddock"
 * and "Quit". Thin: whether it shows is main/lifecycle/stay-in-tray.ts's decision, its menu `trayMenuItems`.
 */
import { Menu, Tray, nativeImage } from "electron";
import { TRAY_ICON_PNG_BASE64 } from "../lifecycle/tray-icon";
import { TRAY_TOOLTIP, trayMenuItems } from "../lifecycle/stay-in-tray";

export interface AppTrayOptions {
  open(): void;
  quit(): void;
}

export class AppTray {
  #tray: Tray | undefined;

  constructor(private readonly options: AppTrayOptions) {}

  /** Shows the icon (once) or removes it. */
  set(shown: boolean): void {
    if (shown && !this.#tray) {
      const image = nativeImage.createFromDataURL(`data:image/png;base64,${TRAY_ICON_PNG_BASE64[16]}`);
      image.addRepresentation({ scaleFactor: 2, dataURL: `data:image/png;base64,${TRAY_ICON_PNG_BASE64[32]}` });
      if (process.platform === "darwin") image.setTemplateImage(true);
      const tray = new Tray(image);
      tray.setToolTip(TRAY_TOOLTIP);
      tray.setContextMenu(Menu.buildFromTemplate(trayMenuItems(this.options)));
      // Windows and Linux: a click on the icon opens a window; macOS shows the menu on click.
      if (process.platform !== "darwin") tray.on("click", () => this.options.open());
      this.#tray = tray;
    } else if (!shown && this.#tray) {
      this.#tray.destroy();
      this.#tray = undefined;
    }
  }

  /** Whether the icon shows now. */
  get shown(): boolean {
    return this.#tray !== undefined && !this.#tray.isDestroyed();
  }
}
