/**
 * The current model most like one its provider no longer lists, for main's words about a retired model and for the
 * page's "Use <closest>" button beside them. Pure: no Node, DOM or Electron.
 */

/**
 * The model whose id is most like `id`: the one sharing the longest start with it ("claude-opus-4-1" ->
 * "claude-opus-4-7"), then the fewest edits; among equals the newer-sounding, higher id. Undefined for no models.
 */
export function closestModel<M extends { id: string }>(id: string, models: readonly M[]): M | undefined {
  let best: { model: M; prefix: number; distance: number } | undefined;
  for (const model of models) {
    const prefix = commonPrefix(id, model.id);
    const distance = editDistance(id, model.id);
    const better = !best || prefix > best.prefix || (prefix === best.prefix && (distance < best.distance || (distance === best.distance && model.id > best.model.id)));
    if (better) best = { model, prefix, distance };
  }
  return best?.model;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
