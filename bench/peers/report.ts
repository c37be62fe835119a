// The comparison's outputs, with no dependencies: markdown tables (median and p99 ms per frame, the
// ratio against hitcore wasm) and a log-log SVG plot of ms per frame against N, one panel per scene.
import type { CaseResult } from "./runner.js";
import { describeDisagreement } from "./runner.js";
import type { Peer } from "./peer.js";
import { MODES, SHAPES, type Mode, type Shape } from "../../fixtures/box_scenes.js";

export const REFERENCE = "hitcore wasm";

export interface ReportMeta {
  machine: string;
  command: string;
  /** Where the run happened, for the README section (e.g. "`npm run bench:peers`, Node 20"). */
  source: string;
  /** The file holding the full results, named in the README section. */
  fullFile: string;
  /** Extra lines under the header (core size, knobs). */
  notes: string[];
}

function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3);
}

function ratio(x: number): string {
  return x >= 10 ? `${x.toFixed(0)}x` : `${x.toFixed(1)}x`;
}

function scenesIn(results: CaseResult[]): { shape: Shape; mode: Mode }[] {
  const out: { shape: Shape; mode: Mode }[] = [];
  for (const mode of MODES) for (const shape of SHAPES) {
    if (results.some((r) => r.shape === shape && r.mode === mode)) out.push({ shape, mode });
  }
  return out;
}

function find(results: CaseResult[], shape: Shape, mode: Mode, n: number, peer: string): CaseResult | undefined {
  return results.find((r) => r.shape === shape && r.mode === mode && r.n === n && r.peer === peer);
}

function peersIn(results: CaseResult[]): string[] {
  return [...new Set(results.map((r) => r.peer))];
}

function sizesIn(results: CaseResult[]): number[] {
  return [...new Set(results.map((r) => r.n))].sort((a, b) => a - b);
}

function sceneTitle(shape: Shape, mode: Mode, results: CaseResult[]): string {
  const one = results.find((r) => r.shape === shape && r.mode === mode);
  const enemies = one ? one.boxes - one.n : 0;
  return mode === "complete" ? `${shape}, complete (all pairs among N boxes)` :
    `${shape}, bipartite (N bullets against ${one ? `${Math.round((100 * enemies) / one.n)}% as many` : "fewer"} enemies)`;
}

/** One cell: median / p99 and the ratio to hitcore wasm, or why there is no time. */
function cell(r: CaseResult | undefined, ref: CaseResult | undefined): string {
  if (!r) return "";
  if (r.status === "skipped") return "skipped";
  if (r.status === "failed") return "failed";
  const times = `${fmt(r.median)} / ${fmt(r.p99)}`;
  const rel = ref && ref.status !== "skipped" && ref.median > 0 && r.peer !== REFERENCE ? ` (${ratio(r.median / ref.median)})` : "";
  return r.status === "disagrees" ? `**disagrees** ${times}${rel}` : `${times}${rel}`;
}

/** The full tables: one per scene, a row per library, a column per N. */
export function sceneTables(results: CaseResult[]): string[] {
  const lines: string[] = [];
  const sizes = sizesIn(results);
  for (const { shape, mode } of scenesIn(results)) {
    lines.push(`### ${sceneTitle(shape, mode, results)}`, "");
    lines.push(`| library | ${sizes.map((n) => `N = ${n.toLocaleString("en-US")}`).join(" | ")} |`);
    lines.push(`|---|${sizes.map(() => "---:").join("|")}|`);
    const pairRow = sizes.map((n) => {
      const r = results.find((c) => c.shape === shape && c.mode === mode && c.n === n);
      return r ? `${r.pairs.toLocaleString("en-US")} (${r.hash})` : "";
    });
    lines.push(`| *pairs, frame 1 (hash)* | ${pairRow.join(" | ")} |`);
    for (const peer of peersIn(results)) {
      const row = sizes.map((n) => cell(find(results, shape, mode, n, peer), find(results, shape, mode, n, REFERENCE)));
      lines.push(`| ${peer} | ${row.join(" | ")} |`);
    }
    lines.push("");
  }
  return lines;
}

/** Everything that did not simply run: disagreements with an example pair, skips, failures. */
export function exceptions(results: CaseResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const where = `${r.peer}, ${r.shape} ${r.mode}, N = ${r.n}`;
    if (r.status === "disagrees" && r.disagreement) lines.push(`- **${where}: disagrees**: ${describeDisagreement(r.disagreement)}.`);
    if (r.status === "failed") lines.push(`- **${where}: failed**: ${r.note}`);
  }
  const skipped = new Map<string, number[]>();
  for (const r of results) {
    if (r.status !== "skipped") continue;
    const key = `${r.peer}, ${r.shape} ${r.mode}`;
    skipped.set(key, [...(skipped.get(key) ?? []), r.n]);
  }
  for (const [key, ns] of skipped) {
    const first = results.find((r) => `${r.peer}, ${r.shape} ${r.mode}` === key && r.status === "skipped");
    lines.push(`- ${key}: skipped at N = ${ns.map((n) => n.toLocaleString("en-US")).join(", ")} (${first?.note}).`);
  }
  return lines;
}

/** The core createWorld loads by default: the SIMD build when this run measured it, else the scalar one. */
export const DEFAULT_CORE_SIMD = "hitcore wasm-simd";

/**
 * The issue's targets as measured in this run, at 10k and 100k: hitcore's default core (the SIMD
 * build where the run has it) against the js baseline and against the fastest peer that agreed
 * with the reference, with the scalar core's time beside it.
 */
export function targets(results: CaseResult[]): string[] {
  const simd = results.some((r) => r.peer === DEFAULT_CORE_SIMD);
  const lines = [
    `| scene | N | hitcore wasm ms |${simd ? " hitcore wasm-simd ms |" : ""} js / hitcore | fastest peer | its ms | peer / hitcore |`,
    `|---|---:|---:|${simd ? "---:|" : ""}---:|---|---:|---:|`,
  ];
  for (const { shape, mode } of scenesIn(results)) {
    for (const n of sizesIn(results).filter((s) => s === 10000 || s === 100000)) {
      const scalar = find(results, shape, mode, n, REFERENCE);
      const vector = simd ? find(results, shape, mode, n, DEFAULT_CORE_SIMD) : undefined;
      const usable = (r: CaseResult | undefined) => r !== undefined && r.status !== "skipped" && r.status !== "failed";
      const ref = usable(vector) ? vector! : scalar;
      if (!ref || !usable(ref)) continue;
      const js = find(results, shape, mode, n, "hitcore js");
      const rivals = results.filter((r) => r.shape === shape && r.mode === mode && r.n === n && !r.hitcore && r.status === "ok");
      const best = rivals.sort((a, b) => a.median - b.median)[0];
      const jsRatio = js && js.status !== "skipped" ? ratio(js.median / ref.median) : "-";
      const time = (r: CaseResult | undefined) => (usable(r) ? `${fmt(r!.median)}${r!.status === "disagrees" ? " (disagrees)" : ""}` : "-");
      lines.push(`| ${shape} ${mode} | ${n.toLocaleString("en-US")} | ${time(scalar)} |${simd ? ` ${time(vector)} |` : ""} ${jsRatio} | ` +
        `${best ? best.peer : "none agreed"} | ${best ? fmt(best.median) : "-"} | ${best ? ratio(best.median / ref.median) : "-"} |`);
    }
  }
  return lines;
}

export function howDriven(peers: Peer[]): string[] {
  return peers.map((p) => `- ${p.how}.`);
}

/** The whole results file: a section ready for the README, then every table. */
export function markdownReport(results: CaseResult[], peers: Peer[], meta: ReportMeta, plotFile: string): string {
  return [
    "# hitcore against its peers",
    "",
    `Machine: ${meta.machine}`,
    "",
    `Command: \`${meta.command}\``,
    "",
    ...meta.notes.map((n) => `${n}  `),
    "",
    "<!-- README section: paste from here to the end marker under the README's Performance heading -->",
    "### Against other libraries",
    "",
    "The same moving scenes through hitcore and the libraries a web game would use instead " +
      `(${meta.source}; every box moves every frame; median ms per frame; the last column is how many times ` +
      "slower the fastest peer that reported the right pairs is than hitcore; hitcore is the core `createWorld` " +
      "loads, the SIMD build where the engine has SIMD, as Node 20 and current browsers do, else the scalar build):",
    "",
    ...targets(results),
    "",
    `![ms per frame against N, log-log, one panel per scene](bench/results/${plotFile})`,
    "",
    `${meta.machine}. Every library must report the same pairs as an independent sort-and-sweep reference ` +
      "(count and a hash of the sorted pair list) before it is timed; scenes keep a gap of at least 0.5 between " +
      "edges so strict and non-strict tests agree. Full tables, how each library was driven and any " +
      "disagreement: `" + meta.fullFile + "`.",
    "<!-- end of README section -->",
    "",
    `![ms per frame against N, log-log](${plotFile})`,
    "",
    "## How each library was driven",
    "",
    ...howDriven(peers),
    "",
    "## Every scene (median / p99 ms per frame; in brackets, times hitcore wasm's median)",
    "",
    ...sceneTables(results),
    "## Disagreements, failures and skips",
    "",
    ...(exceptions(results).length ? exceptions(results) : ["None: every library that ran agreed with the reference on every scene."]),
    "",
  ].join("\n");
}

// ---- the plot ----------------------------------------------------------------------------------

const COLORS = ["#d62728", "#ff7f0e", "#8c564b", "#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#e377c2", "#7f7f7f", "#bcbd22"];

function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A log-log SVG: ms per frame (median) against N, one panel per scene, one line per library. */
export function svgPlot(results: CaseResult[], title: string): string {
  const scenes = scenesIn(results);
  const peers = peersIn(results);
  const sizes = sizesIn(results);
  const timed = results.filter((r) => (r.status === "ok" || r.status === "disagrees") && r.median > 0);
  const cols = Math.min(3, Math.max(1, scenes.length));
  const rows = Math.ceil(scenes.length / cols);
  const pw = 330, ph = 250, ml = 52, mr = 12, mt = 28, mb = 40, legendH = 24 + 18 * Math.ceil(peers.length / 4);
  const width = cols * pw, height = 34 + rows * ph + legendH;
  const minN = sizes[0] ?? 1000, maxN = sizes[sizes.length - 1] ?? 1000;
  const lo = Math.floor(Math.log10(Math.min(...timed.map((r) => r.median), 1)));
  const hi = Math.ceil(Math.log10(Math.max(...timed.map((r) => r.median), 10)));
  const xDecades = [Math.log10(minN) - 0.08, Math.log10(maxN) + 0.08]; // the measured sizes, a little margin
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  scenes.forEach(({ shape, mode }, s) => {
    const ox = (s % cols) * pw, oy = 34 + Math.floor(s / cols) * ph;
    const iw = pw - ml - mr, ih = ph - mt - mb;
    const lx = (n: number) => ox + ml + (iw * (Math.log10(n) - xDecades[0])) / Math.max(1e-9, xDecades[1] - xDecades[0]);
    const ly = (ms: number) => oy + mt + ih - (ih * (Math.log10(ms) - lo)) / Math.max(1e-9, hi - lo);
    out.push(`<text x="${ox + ml + iw / 2}" y="${oy + 16}" text-anchor="middle" font-weight="bold">${esc(`${shape} ${mode}`)}</text>`);
    out.push(`<rect x="${ox + ml}" y="${oy + mt}" width="${iw}" height="${ih}" fill="none" stroke="#999"/>`);
    for (let d = lo; d <= hi; d++) {
      const y = ly(10 ** d);
      out.push(`<line x1="${ox + ml}" x2="${ox + ml + iw}" y1="${y}" y2="${y}" stroke="#eee"/>`);
      out.push(`<text x="${ox + ml - 4}" y="${y + 4}" text-anchor="end">${10 ** d >= 1 ? 10 ** d : (10 ** d).toFixed(-d)}</text>`);
    }
    for (const n of sizes) {
      const x = lx(n);
      out.push(`<line x1="${x}" x2="${x}" y1="${oy + mt}" y2="${oy + mt + ih}" stroke="#eee"/>`);
      out.push(`<text x="${x}" y="${oy + mt + ih + 14}" text-anchor="middle">${n >= 1000 ? `${n / 1000}k` : n}</text>`);
    }
    out.push(`<text x="${ox + ml + iw / 2}" y="${oy + mt + ih + 30}" text-anchor="middle" fill="#555">N</text>`);
    out.push(`<text transform="translate(${ox + 14} ${oy + mt + ih / 2}) rotate(-90)" text-anchor="middle" fill="#555">ms per frame</text>`);
    peers.forEach((peer, p) => {
      const pts = timed.filter((r) => r.peer === peer && r.shape === shape && r.mode === mode).sort((a, b) => a.n - b.n);
      if (pts.length === 0) return;
      const color = COLORS[p % COLORS.length];
      const dash = peer.startsWith("hitcore") ? "" : ` stroke-dasharray="5 3"`;
      out.push(`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${pts.map((r) => `${lx(r.n).toFixed(1)},${ly(r.median).toFixed(1)}`).join(" ")}"/>`);
      for (const r of pts) {
        const mark = r.status === "disagrees" ? `<text x="${lx(r.n)}" y="${ly(r.median) + 4}" text-anchor="middle" fill="${color}">x</text>` :
          `<circle cx="${lx(r.n).toFixed(1)}" cy="${ly(r.median).toFixed(1)}" r="3" fill="${color}"/>`;
        out.push(mark);
      }
    });
  });
  const ly0 = 34 + rows * ph + 8;
  peers.forEach((peer, p) => {
    const x = 20 + (p % 4) * ((width - 40) / 4), y = ly0 + 18 * Math.floor(p / 4);
    const dash = peer.startsWith("hitcore") ? "" : ` stroke-dasharray="5 3"`;
    out.push(`<line x1="${x}" x2="${x + 24}" y1="${y}" y2="${y}" stroke="${COLORS[p % COLORS.length]}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${x + 30}" y="${y + 4}">${esc(peer)}</text>`);
  });
  out.push(`<text x="${width - 8}" y="${height - 6}" text-anchor="end" fill="#777">median ms per frame, log-log; x marks a library that disagreed with the reference</text>`);
  out.push("</svg>");
  return out.join("\n") + "\n";
}
