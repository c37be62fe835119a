// The peers comparison in the browser, where users run it: the same scenes, adapters and runner as
// `npm run bench:peers` (bench/peers/), bundled by Vite. It shows the log, the plot and the tables,
// and publishes them on `window.__peers` for tests/bench/peers_browser.test.ts, which saves the table.
import wasmUrl from "../dist/hitcore.wasm?url";
import { boxIntersectPeer } from "../bench/peers/box_intersect.js";
import { check2dPeer } from "../bench/peers/check2d.js";
import { flatbushPeer } from "../bench/peers/flatbush.js";
import { hitcorePeer } from "../bench/peers/hitcore.js";
import type { Peer } from "../bench/peers/peer.js";
import { rapierPeer } from "../bench/peers/rapier.js";
import { rbushPeer } from "../bench/peers/rbush.js";
import { markdownReport, svgPlot } from "../bench/peers/report.js";
import { clockStep, medianNote, runPeers, type CaseResult } from "../bench/peers/runner.js";
import { MODES, SHAPES, type Mode, type Shape } from "../fixtures/box_scenes.js";
import { createWorld } from "../bindings/browser.js";

/** What the page publishes for the browser test. */
export interface PeersProbe {
  done: boolean;
  error: string;
  markdown: string;
  svg: string;
  log: string[];
  results: CaseResult[];
}

declare global {
  interface Window {
    __peers?: PeersProbe;
  }
}

// The SIMD core (dist/hitcore-simd.wasm, which `npm run build` writes) through a glob: a bundle
// made from a scalar-only build still works, without the SIMD row.
const simdUrl = Object.values(import.meta.glob<string>("../dist/hitcore-simd.wasm", { query: "?url", import: "default", eager: true }))[0];

const probe: PeersProbe = { done: false, error: "", markdown: "", svg: "", log: [], results: [] };
window.__peers = probe;

const statusEl = byId("status"), logEl = byId("log"), plotEl = byId("plot"), tableEl = byId("table");
const params = new URLSearchParams(location.search);
const list = (name: string) => params.get(name)?.split(",").map((s) => s.trim()).filter(Boolean);

const peers: Peer[] = [
  hitcorePeer("hitcore wasm", "wasm", createWorld, wasmUrl),
  ...(simdUrl ? [hitcorePeer("hitcore wasm-simd", "wasm", createWorld, simdUrl)] : []),
  hitcorePeer("hitcore js", "js", createWorld),
  rapierPeer, flatbushPeer, boxIntersectPeer, rbushPeer, check2dPeer,
];

void main();

async function main(): Promise<void> {
  try {
    const only = list("peers");
    const chosen = only ? peers.filter((p) => p.name === "hitcore wasm" || only.includes(p.name)) : peers;
    const shapes = (list("shapes") ?? SHAPES).filter((s): s is Shape => (SHAPES as string[]).includes(s));
    const modes = (list("modes") ?? MODES).filter((m): m is Mode => (MODES as string[]).includes(m));
    const sizes = (list("sizes") ?? ["1000", "10000"]).map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const timeMs = Number(params.get("time") ?? 150);
    const rounds = Number(params.get("rounds") ?? 1);
    const frameBudgetMs = Number(params.get("budget") ?? 250);
    const maxFrameMs = Number(params.get("cap") ?? 1000);
    const mustSizes = (list("must") ?? ["10000"]).map(Number);
    // Chromium started with --js-flags=--expose-gc (the browser suites do) has gc(): each library's
    // run then starts after a collection and a pause, as under Node, so the last library's garbage
    // is not swept on the second core while the next one is timed.
    const gc = (globalThis as { gc?: () => void }).gc, settleMs = Number(params.get("settle") ?? 50);
    const started = performance.now();
    const results = await runPeers({
      peers: chosen, shapes, modes, sizes, timeMs, rounds, warmMs: Math.max(30, timeMs / 3), minFrames: 5, maxFrames: 3000,
      frameBudgetMs, mustSizes, maxFrameMs, checkFrames: 2, gc, settleMs,
      log: (line) => {
        probe.log.push(line);
        logEl.textContent += `${line}\n`;
        logEl.scrollTop = logEl.scrollHeight;
        statusEl.textContent = `running… ${line.trim().split("  ")[0]}`;
      },
    });
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    const machine = `${navigator.userAgent}; ${navigator.hardwareConcurrency} logical cores; ${new Date().toISOString().slice(0, 10)}`;
    const notes = [
      `In the browser (demo/peers.html${location.search}); ${seconds} s for the whole run.`,
      `Timed ${timeMs} ms per library and scene in ${rounds} round${rounds === 1 ? "" : "s"} (the libraries take turns, each set up and warmed up again every round); a library predicted slower than ${frameBudgetMs} ms per frame at the next N is skipped there (at N = ${mustSizes.join(", ")} only above ${maxFrameMs} ms).`,
      gc ? `Before each library's run: a forced collection (Chromium started with --js-flags=--expose-gc) and a ${settleMs} ms pause, as in \`npm run bench:peers\` (150 ms there, for heaps of up to 250k boxes).` : "No gc() in this browser: runs follow each other without a forced collection (start Chromium with --js-flags=--expose-gc for one).",
      simdUrl ? "SIMD core: dist/hitcore-simd.wasm." : "No dist/hitcore-simd.wasm at bundle time: no SIMD row.",
      medianNote(clockStep()),
    ];
    probe.results = results;
    probe.svg = svgPlot(results, "hitcore against its peers in the browser: median ms per frame");
    probe.markdown = markdownReport(results, chosen, {
      machine, command: `demo/peers.html${location.search}`, notes,
      source: "headless Chromium, `demo/peers.html` run by `npm run bench:peers-browser`", fullFile: "bench/results/peers-browser.md",
    }, "peers-browser.svg");
    plotEl.innerHTML = probe.svg;
    tableEl.textContent = probe.markdown;
    statusEl.textContent = `done in ${seconds} s`;
  } catch (err) {
    probe.error = err instanceof Error ? `${err.message}\n${err.stack ?? ""}` : String(err);
    statusEl.textContent = `failed: ${probe.error}`;
  } finally {
    probe.done = true;
  }
}

function byId(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`peers page: #${id} is missing`);
  return el;
}
