import { Fragment } from "react";
import { chordLabel, type Chord } from "../../../shared/shortcuts";
import "../../styles/shortcuts.css";

/** Whether the page runs on macOS, where shortcuts name ⌘ rather than Ctrl. */
export function onMac(): boolean {
  const platform = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform;
  return /mac|iphone|ipad/i.test(platform);
}

/** A chord as keycaps: <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>O</kbd> (on macOS ⌘⇧O, as its menus write them). */
export function Keys({ chord, mac }: { chord: Chord; mac: boolean }) {
  const keys = chordLabel(chord, mac);
  return (
    <span className="shortcut-keys">
      {keys.map((k, i) => (
        <Fragment key={i}>
          {i > 0 && !mac ? <span aria-hidden="true">+</span> : null}
          <kbd>{k}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

/** A chord as a tooltip writes it ("Ctrl+B", on macOS "⌘B") and as `aria-keyshortcuts` wants it ("Control+B", "Meta+B"). */
export function chordText(chord: Chord, mac = onMac()): { label: string; aria: string } {
  const aria = [chord.mod ? (mac ? "Meta" : "Control") : "", chord.alt ? "Alt" : "", chord.shift ? "Shift" : "", chord.key.length === 1 ? chord.key.toUpperCase() : chord.key]
    .filter(Boolean).join("+");
  return { label: chordLabel(chord, mac).join(mac ? "" : "+"), aria };
}
