// Pair lists and their agreement: every library's pairs become sorted keys (lo * 2^22 + hi, box
// indices of the scene), hashed and compared with an independent reference. The reference is a
// plain sort-and-sweep written straight from the definition of box overlap, not from any library.
import type { BoxScene } from "../../fixtures/box_scenes.js";

const KEY = 4194304; // 2^22: box indices stay below it, keys below 2^44 are exact in f64

/** A growable pair buffer the peers' callbacks write into: (a, b) at [2k], [2k + 1]. */
export class PairSink {
  buf = new Int32Array(2048);
  count = 0;

  push(a: number, b: number): void {
    const at = 2 * this.count;
    if (at === this.buf.length) {
      const next = new Int32Array(2 * this.buf.length);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[at] = a;
    this.buf[at + 1] = b;
    this.count++;
  }
}

/** Sorted keys of `count` pairs in `buf`, each pair ordered (lo, hi). */
export function pairKeys(buf: Int32Array, count: number): Float64Array {
  const keys = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const a = buf[2 * k], b = buf[2 * k + 1];
    keys[k] = a < b ? a * KEY + b : b * KEY + a;
  }
  return keys.sort();
}

/** FNV-1a over the sorted keys. */
export function keysHash(keys: Float64Array): string {
  let h = 0x811c9dc5;
  for (let k = 0; k < keys.length; k++) {
    const v = keys[k];
    h = Math.imul(h ^ Math.floor(v / KEY), 16777619);
    h = Math.imul(h ^ (v % KEY), 16777619);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

export function keyPair(key: number): [number, number] {
  return [Math.floor(key / KEY), key % KEY];
}

/** How a library's pairs differ from the reference: counts, hashes and one example pair. */
export interface Disagreement {
  count: number;
  expected: number;
  hash: string;
  expectedHash: string;
  /** A pair one side has and the other lacks. */
  example: [number, number];
  /** "missing" (in the reference only), "extra" (in the library only) or "duplicate". */
  kind: "missing" | "extra" | "duplicate";
}

/** Compares sorted keys with the reference's; null when they are identical. */
export function compareKeys(got: Float64Array, want: Float64Array): Disagreement | null {
  const same = got.length === want.length && got.every((v, k) => v === want[k]);
  if (same) return null;
  let i = 0, j = 0;
  let example: [number, number] = [-1, -1];
  let kind: Disagreement["kind"] = "missing";
  for (;;) {
    if (i > 0 && i < got.length && got[i] === got[i - 1]) { example = keyPair(got[i]); kind = "duplicate"; break; }
    if (j >= want.length) { example = keyPair(got[i]); kind = "extra"; break; }
    if (i >= got.length || got[i] > want[j]) { example = keyPair(want[j]); kind = "missing"; break; }
    if (got[i] < want[j]) { example = keyPair(got[i]); kind = "extra"; break; }
    i++;
    j++;
  }
  return { count: got.length, expected: want.length, hash: keysHash(got), expectedHash: keysHash(want), example, kind };
}

/**
 * The reference: sort the boxes by left edge, sweep, and test each box against those whose left
 * edge lies before its right edge. Bipartite scenes keep only pairs with one box on each side.
 */
export function referenceKeys(scene: BoxScene): Float64Array {
  const { n, nA, x, y, w, h } = scene;
  const bipartite = n !== nA;
  const order = new Float64Array(n);
  for (let k = 0; k < n; k++) order[k] = x[k] * KEY + k; // x is a whole number below 2^22
  order.sort();
  const sink = new PairSink();
  for (let s = 0; s < n; s++) {
    const i = order[s] % KEY;
    const right = x[i] + w[i], top = y[i], bottom = y[i] + h[i];
    for (let t = s + 1; t < n; t++) {
      const j = order[t] % KEY;
      if (x[j] >= right) break;
      if (y[j] < bottom && top < y[j] + h[j] && (!bipartite || (i < nA) !== (j < nA))) sink.push(i, j);
    }
  }
  return pairKeys(sink.buf, sink.count);
}
