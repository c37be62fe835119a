// The determinism page: plays the scripted game of fixtures/one_world.ts (every part of a level in
// one world, stepped from one seeded input script) for N frames on wasm-simd, wasm-scalar and js in
// this browser, and publishes a hash of the game every REPLAY_EVERY frames on
// window.__hitcoreReplay. tests/arena_browser.test.ts compares them with the hashes Node gives.
import wasmUrl from "../dist/hitcore.wasm?url";
import simdWasmUrl from "../dist/hitcore-simd.wasm?url";
import { scriptedGame } from "../fixtures/one_world.js";
import { createWorld } from "../bindings/browser.js";
import { element, showError } from "./page.js";

/** Frames between two hashes. */
export const REPLAY_EVERY = 1000;
/** The world's first capacity (tests/one_world.test.ts plays the game in worlds made alike). */
export const REPLAY_CAPACITY = 64;
export const REPLAY_CORES = ["wasm-simd", "wasm-scalar", "js"] as const;
export type ReplayCore = (typeof REPLAY_CORES)[number];

/** What the page publishes for the browser test and the devtools console. */
export interface ReplayProbe {
  /** The page has loaded and waits for a run (or runs one). */
  ready: boolean;
  running: boolean;
  /** True once every core has played every frame (or an error stopped the run). */
  done: boolean;
  frames: number;
  every: number;
  /** Per core: the hash after frame every, 2 every, ...; frames played; ms the run took. */
  hashes: Record<ReplayCore, number[]>;
  played: Record<ReplayCore, number>;
  ms: Record<ReplayCore, number>;
  errors: string[];
}

declare global {
  interface Window {
    __hitcoreReplay?: ReplayProbe;
  }
}

const CHUNK = 250; // frames between two yields to the page (the output and the test's polling)
const MAX_FRAMES = 1_000_000;

const out = element("out", HTMLElement);
const framesInput = element("frames", HTMLInputElement);
const runButton = element("run", HTMLButtonElement);

const probe: ReplayProbe = {
  ready: true, running: false, done: false, frames: 0, every: REPLAY_EVERY,
  hashes: { "wasm-simd": [], "wasm-scalar": [], js: [] }, played: { "wasm-simd": 0, "wasm-scalar": 0, js: 0 },
  ms: { "wasm-simd": 0, "wasm-scalar": 0, js: 0 }, errors: [],
};
window.__hitcoreReplay = probe;
window.addEventListener("error", (e) => showError(probe.errors, out, e.error ?? e.message));
window.addEventListener("unhandledrejection", (e) => showError(probe.errors, out, e.reason));

const asked = Number(new URLSearchParams(location.search).get("replay"));
if (Number.isInteger(asked) && asked > 0) framesInput.value = String(Math.min(asked, MAX_FRAMES));
runButton.addEventListener("click", () => void run(Number(framesInput.value)));
if (Number.isInteger(asked) && asked > 0) void run(Math.min(asked, MAX_FRAMES));

async function run(frames: number): Promise<void> {
  if (probe.running) return;
  if (!Number.isInteger(frames) || frames < 1 || frames > MAX_FRAMES) {
    out.textContent = `frames must be a whole number from 1 to ${MAX_FRAMES}`;
    return;
  }
  Object.assign(probe, { running: true, done: false, frames, errors: [] });
  for (const core of REPLAY_CORES) { probe.hashes[core] = []; probe.played[core] = 0; probe.ms[core] = 0; }
  runButton.disabled = true;
  try {
    for (const core of REPLAY_CORES) {
      const world = await createWorld({
        backend: core === "js" ? "js" : "wasm", wasm: core === "wasm-simd" ? simdWasmUrl : wasmUrl, capacity: REPLAY_CAPACITY,
      });
      const game = scriptedGame(world), hashes = probe.hashes[core];
      let busy = 0, since = performance.now(); // ms spent playing, not waiting for the page
      for (let f = 0; f < frames; f++) {
        game.step(f);
        if ((f + 1) % REPLAY_EVERY === 0) hashes.push(game.hash());
        if ((f + 1) % CHUNK === 0 || f + 1 === frames) {
          busy += performance.now() - since;
          probe.played[core] = f + 1;
          show();
          await new Promise((done) => setTimeout(done, 0));
          since = performance.now();
        }
      }
      probe.ms[core] = busy;
      world.dispose();
    }
  } catch (err) {
    showError(probe.errors, out, err);
  }
  probe.running = false;
  probe.done = true;
  runButton.disabled = false;
  if (probe.errors.length === 0) show();
}

function show(): void {
  const lines = [`${probe.frames.toLocaleString("en-US")} frames of the scripted game, a hash every ${REPLAY_EVERY.toLocaleString("en-US")}`, ""];
  lines.push(`${"frame".padStart(8)}  ${REPLAY_CORES.map((c) => c.padStart(12)).join("  ")}  agree`);
  const rows = Math.max(...REPLAY_CORES.map((c) => probe.hashes[c].length));
  for (let r = 0; r < rows; r++) {
    const cells: (number | undefined)[] = REPLAY_CORES.map((c) => probe.hashes[c][r]);
    const complete = cells.every((h) => h !== undefined), agree = complete && cells.every((h) => h === cells[0]);
    lines.push(`${((r + 1) * REPLAY_EVERY).toLocaleString("en-US").padStart(8)}  ${cells.map((h) => (h === undefined ? "" : `0x${h.toString(16).padStart(8, "0")}`).padStart(12)).join("  ")}  ${agree ? "yes" : complete ? "NO" : ""}`);
  }
  lines.push("", REPLAY_CORES.map((c) => `${c}: ${probe.played[c].toLocaleString("en-US")} frames${probe.ms[c] ? ` in ${(probe.ms[c] / 1000).toFixed(1)} s` : ""}`).join(", "));
  out.textContent = lines.join("\n");
}
