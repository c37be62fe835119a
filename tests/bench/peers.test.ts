// The peers comparison harness (bench/peers/): its scenes keep the promises the comparison rests on
// (every box moves every frame, no two edges ever meet), its reference equals brute force, every
// adapter reports the reference's pairs, and a library that disagrees is reported as disagreeing
// with an example pair instead of being timed silently.
import { describe, expect, it } from "vitest";
import { createWorld } from "../../bindings/node.js";
import { boxIntersectPeer } from "../../bench/peers/box_intersect.js";
import { check2dPeer } from "../../bench/peers/check2d.js";
import { flatbushPeer } from "../../bench/peers/flatbush.js";
import { hitcorePeer } from "../../bench/peers/hitcore.js";
import { compareKeys, keysHash, pairKeys, PairSink, referenceKeys } from "../../bench/peers/pairs.js";
import type { Peer } from "../../bench/peers/peer.js";
import { rapierPeer } from "../../bench/peers/rapier.js";
import { rbushPeer } from "../../bench/peers/rbush.js";
import { markdownReport, svgPlot } from "../../bench/peers/report.js";
import { clockStep, frameMedian, runPeers } from "../../bench/peers/runner.js";
import { BoxScene, MODES, SHAPES, type SceneSpec } from "../../fixtures/box_scenes.js";
import { mulberry32 } from "../../fixtures/random.js";
const wasmUrl = new URL("../../dist/hitcore.wasm", import.meta.url);
const simdUrl = new URL("../../dist/hitcore-simd.wasm", import.meta.url);

const SPECS: SceneSpec[] = MODES.flatMap((mode) => SHAPES.map((shape) => ({ shape, mode, n: 1500 })));

/** Every overlapping pair by testing all of them, straight from the definition of box overlap. */
function bruteForce(s: BoxScene): Float64Array {
  const sink = new PairSink();
  for (let i = 0; i < s.n; i++) {
    for (let j = i + 1; j < s.n; j++) {
      if (s.n !== s.nA && (i < s.nA) === (j < s.nA)) continue;
      if (s.x[i] < s.x[j] + s.w[j] && s.x[j] < s.x[i] + s.w[i] && s.y[i] < s.y[j] + s.h[j] && s.y[j] < s.y[i] + s.h[i]) sink.push(i, j);
    }
  }
  return pairKeys(sink.buf, sink.count);
}

const peers: Peer[] = [
  hitcorePeer("hitcore wasm", "wasm", createWorld, wasmUrl),
  hitcorePeer("hitcore wasm-simd", "wasm", createWorld, simdUrl),
  hitcorePeer("hitcore js", "js", createWorld),
  rapierPeer, flatbushPeer, boxIntersectPeer, rbushPeer, check2dPeer,
];

describe("peers scenes", () => {
  it.each(SPECS)("$shape $mode: every box moves every frame and no two edges ever meet", (spec) => {
    const s = new BoxScene(spec);
    expect(s.n).toBe(spec.mode === "complete" ? spec.n : spec.n + Math.round(spec.n * 0.03));
    for (let f = 0; f < 20; f++) {
      const px = s.x.slice(), py = s.y.slice();
      s.step();
      for (let k = 0; k < s.n; k++) {
        if (s.x[k] === px[k] || s.y[k] === py[k]) expect.fail(`box ${k} did not move on frame ${f}`);
        const inside = s.x[k] >= 0 && s.y[k] >= 0 && s.x[k] + s.w[k] <= s.side && s.y[k] + s.h[k] <= s.side;
        if (!Number.isInteger(s.x[k]) || !Number.isInteger(s.y[k]) || !inside) expect.fail(`box ${k} at (${s.x[k]}, ${s.y[k]}) size ${s.w[k]} x ${s.h[k]} in ${s.side}`);
        // Whole positions and sizes a half off whole: an edge is never at a whole number.
        expect(s.w[k] % 1).toBe(0.5);
        expect(s.h[k] % 1).toBe(0.5);
      }
    }
  });

  it("restarts from the same positions after reset", () => {
    const s = new BoxScene({ shape: "clustered", mode: "complete", n: 500 });
    const x0 = s.x.slice();
    for (let f = 0; f < 7; f++) s.step();
    expect(s.x).not.toEqual(x0);
    s.reset();
    expect(s.x).toEqual(x0);
  });
});

describe("peers reference", () => {
  it.each(SPECS)("$shape $mode: sort-and-sweep equals brute force on several frames", (spec) => {
    const s = new BoxScene(spec);
    for (let f = 0; f < 3; f++) {
      const want = bruteForce(s);
      expect(want.length).toBeGreaterThan(0);
      expect(referenceKeys(s)).toEqual(want);
      s.step();
    }
  });

  it("compareKeys names a missing, an extra and a duplicated pair", () => {
    const want = new Float64Array([1 * 4194304 + 5, 2 * 4194304 + 9, 7 * 4194304 + 8]);
    expect(compareKeys(want.slice(), want)).toBeNull();
    const missing = compareKeys(new Float64Array([want[0], want[2]]), want);
    expect(missing).toMatchObject({ kind: "missing", example: [2, 9], count: 2, expected: 3 });
    const extra = compareKeys(new Float64Array([want[0], want[1], 3 * 4194304 + 4, want[2]]), want);
    expect(extra).toMatchObject({ kind: "extra", example: [3, 4] });
    const twice = compareKeys(new Float64Array([want[0], want[0], want[1], want[2]]), want);
    expect(twice).toMatchObject({ kind: "duplicate", example: [1, 5] });
    expect(missing!.hash).not.toBe(missing!.expectedHash);
    expect(keysHash(want)).toBe(keysHash(want.slice()));
  });
});

describe("peers adapters", () => {
  it.each(SPECS)("$shape $mode: every library reports the reference's pairs", async (spec) => {
    const s = new BoxScene(spec);
    for (const peer of peers) {
      s.reset();
      const run = await peer.create(s);
      const refs = [referenceKeys(s)];
      for (let f = 1; f <= 3; f++) {
        s.step();
        refs.push(referenceKeys(s));
        run.frame();
        const { buf, count } = run.pairs();
        const got = pairKeys(buf, count);
        expect(compareKeys(got, refs[f - peer.lag]), `${peer.name}, frame ${f}`).toBeNull();
      }
      run.dispose();
    }
  }, 60_000);
});

describe("peers runner and report", () => {
  it("reads a median under 40 clock steps from 8-frame means, and longer ones from single frames", () => {
    // A 5 µs clock whose clamp is jittered (a cross-origin isolated Chromium page): a frame of
    // 0.0832 ms reads 0.080 or 0.085, the later one about 64% of the time.
    const step = 0.005, rnd = mulberry32(7);
    const read = (ms: number) => (Math.floor(ms / step) + (rnd() < (ms / step) % 1 ? 1 : 0)) * step;
    const rounds = [0, 1, 2].map(() => Float64Array.from({ length: 400 }, () => read(0.0832)));
    const single = [...rounds.flatMap((f) => [...f])].sort((a, b) => a - b)[600];
    expect(Math.abs(single - 0.0832)).toBeGreaterThan(0.0015);
    expect(Math.abs(frameMedian(rounds, step) - 0.0832)).toBeLessThan(0.0008);
    // 40 steps and longer: the median of single frames, as read.
    const long = [Float64Array.from({ length: 101 }, (_, k) => 0.2 + (k % 10) * step)];
    expect(frameMedian(long, step)).toBe([...long[0]].sort((a, b) => a - b)[50]);
    // Node's clock steps in far under a microsecond.
    expect(clockStep()).toBeLessThan(0.001);
  });

  it("times agreeing libraries, reports a disagreeing one with an example pair, and skips over budget", async () => {
    // rapier's pairs lag one frame; an adapter that forgets it must be caught.
    const forgetful: Peer = { ...rapierPeer, name: "rapier, lag ignored", lag: 0 };
    const results = await runPeers({
      peers: [peers[0], flatbushPeer, forgetful], shapes: ["uniform"], modes: ["complete", "bipartite"], sizes: [400, 4000],
      timeMs: 10, warmMs: 5, minFrames: 5, maxFrames: 50, frameBudgetMs: 1e9, mustSizes: [], maxFrameMs: 1e9, checkFrames: 2,
    });
    expect(results.length).toBe(2 * 2 * 3);
    for (const r of results.filter((c) => c.peer !== forgetful.name)) {
      expect(r.status).toBe("ok");
      expect(r.frames).toBeGreaterThanOrEqual(5);
      expect(r.median).toBeGreaterThan(0);
      expect(r.p99).toBeGreaterThanOrEqual(r.median);
    }
    for (const r of results.filter((c) => c.peer === forgetful.name)) {
      expect(r.status).toBe("disagrees");
      expect(r.disagreement!.example[0]).toBeGreaterThanOrEqual(0);
    }
    const md = markdownReport(results, [peers[0], flatbushPeer, forgetful], {
      machine: "test machine", command: "vitest", notes: [], source: "vitest", fullFile: "none",
    }, "plot.svg");
    expect(md).toContain("| hitcore wasm |");
    expect(md).toMatch(/rapier, lag ignored, uniform complete, N = 400: disagrees\*\*: .* pair \(\d+, \d+\)/);
    expect(md).toContain("**disagrees**");
    const svg = svgPlot(results, "test");
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<polyline/g)!.length).toBe(2 * 3);

    // A tiny budget: every library runs at the first size and is skipped, with a reason, at the next.
    const skipped = await runPeers({
      peers: [peers[0], flatbushPeer], shapes: ["uniform"], modes: ["complete"], sizes: [400, 4000, 40000],
      timeMs: 5, warmMs: 5, minFrames: 5, maxFrames: 20, frameBudgetMs: 1e-6, mustSizes: [40000], maxFrameMs: 1e9, checkFrames: 1,
    });
    expect(skipped.filter((r) => r.n === 400).map((r) => r.status)).toEqual(["ok", "ok"]);
    expect(skipped.filter((r) => r.n === 4000).map((r) => r.status)).toEqual(["skipped", "skipped"]);
    expect(skipped[2].note).toContain("frame budget");
    // ...but runs at a size where only the cap applies.
    expect(skipped.filter((r) => r.n === 40000).map((r) => r.status)).toEqual(["ok", "ok"]);
  }, 60_000);

  it("in rounds, the libraries take turns, each set up again every round, and its frames are pooled", async () => {
    const forgetful: Peer = { ...rapierPeer, name: "rapier, lag ignored", lag: 0 };
    const created: string[] = [];
    const counted = (peer: Peer): Peer => ({
      ...peer,
      create: (scene) => {
        created.push(peer.name);
        return peer.create(scene);
      },
    });
    const libraries = [peers[0], flatbushPeer, forgetful];
    const [a, b, c] = libraries.map((p) => p.name);
    const results = await runPeers({
      peers: libraries.map(counted), shapes: ["uniform"], modes: ["complete"], sizes: [400], rounds: 3,
      timeMs: 15, warmMs: 2, minFrames: 6, maxFrames: 50, frameBudgetMs: 1e9, mustSizes: [], maxFrameMs: 1e9, checkFrames: 2,
    });
    // The first library of a round rotates, so none is always timed first.
    expect(created).toEqual([a, b, c, b, c, a, c, a, b]);
    expect(results.map((r) => r.peer)).toEqual([a, b, c]);
    for (const r of results.slice(0, 2)) {
      expect(r.status).toBe("ok");
      expect(r.frames).toBeGreaterThanOrEqual(6); // at least two a round
      expect(r.p99).toBeGreaterThanOrEqual(r.median);
      expect(r.setupMs).toBeGreaterThanOrEqual(0);
    }
    // A disagreement found in the first round stays reported.
    expect(results[2].status).toBe("disagrees");
    expect(results[2].disagreement!.example[0]).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
