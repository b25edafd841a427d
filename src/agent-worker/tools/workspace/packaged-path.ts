/**
 * Where a binary shipped in a package really lies in a packaged app. Electron reads files inside `app.asar` for
 * Node's fs, but the OS cannot execute from it: electron-builder's `asarUnpack` puts such files in
 * `app.asar.unpacked` beside it, and paths computed from a module's location must be rewritten to match (as VS Code
 * does for its ripgrep). Paths outside an asar, or already unpacked, come back unchanged.
 */
export function unpackedAsarPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/])/, "$1app.asar.unpacked");
}
