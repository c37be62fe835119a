// What every demo page shares: finding its controls, and reporting an error on the HUD and in the
// probe the browser tests read.

/** The page's element with this id, checked to be of the expected type. */
export function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`demo: #${id} is missing from ${location.pathname} or is not a ${type.name}`);
  return el;
}

/** Records an error: kept in `errors` (at most `max`), logged, and shown on the HUD. */
export function showError(errors: string[], hud: HTMLElement, err: unknown, max = 50): void {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  if (errors.length < max) errors.push(message);
  console.error("hitcore demo:", err);
  hud.textContent = `error: ${message}`;
}
