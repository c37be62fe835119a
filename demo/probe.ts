// What the demo publishes on `window.__hitcore` for the browser test (tests/browser.test.ts) and
// for poking at from the devtools console. Updated every frame; counters restart with each world.

export interface DemoProbe {
  /** A world is running (false while one is being created). */
  ready: boolean;
  /** Frames simulated on the current world. */
  frames: number;
  /** Bullets that hit an enemy on the last frame, and since the world was created. */
  hitsFrame: number;
  hitsTotal: number;
  /** Median ms of one `world.firstHits(BULLET, ENEMY)` over the last second. */
  collisionMs: number;
  /** Median ms of drawing a frame over the last second. */
  renderMs: number;
  fps: number;
  bullets: number;
  backend: string;
  /** The core file the wasm backend runs ("hitcore-simd.wasm" where the browser has wasm SIMD); "" on js. */
  core: string;
  /** Frames in which bullets touched the player's ship. */
  shipHits: number;
  /** Uncaught errors and failed world creations, oldest first (capped). */
  errors: string[];
  /** Where the game runs: "page", or "worker-shared" / "worker-transfer" (how frames come back). */
  mode: string;
  /** Median ms of the page's whole frame callback over the last second (the main thread's cost). */
  mainMs: number;
  /** Steps whose results the page has taken (every frame on the page; fewer in a worker that lags). */
  steps: number;
}

/** What `window.__bulletScript` answers: a scripted run's totals and a hash of the positions. */
export interface ScriptedRun {
  mode: string;
  steps: number;
  count: number;
  hits: number;
  touches: number;
  hash: number;
}

declare global {
  interface Window {
    __hitcore?: DemoProbe;
    __bulletScript?: (where: "page" | "worker", steps: number, bullets: number, shared?: boolean) => Promise<ScriptedRun>;
  }
}
