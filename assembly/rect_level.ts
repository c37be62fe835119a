// Instanced rectangle hierarchies of "2D Platformer Advanced Collision Detection": prefabs hold
// their collision rects once, instances place a prefab with a translation and optional mirroring,
// each instance has a master box, and a quadtree over the master boxes answers "which pieces
// overlap this box?" for collision and for view culling. Layout: layout/rects.ts.
//
// Why this shape:
// - The quadtree is implicit and complete to depth D: node (level L, column ix, row iy) has index
//   (4^L - 1) / 3 + iy * 2^L + ix, so no pointers are stored and the build is a counting sort.
// - Each instance lives in the deepest node whose box holds its whole master box (the classic
//   quadtree): a query visits a node's quadrants only on the sides its box reaches, exactly the
//   seed's "is it in the left or right half, the top or bottom half?" step. Empty subtrees are
//   skipped through a per-node subtree count.
// - Geometry is computed in f64 from the f32 stores: the wasm cores and the js backend then run
//   the same IEEE operations and agree bit for bit.
import {
  MAX_DEPTH, MIRROR_X, MIRROR_Y, RH, RH_DEPTH, RH_INST_BOX, RH_INST_FLAGS, RH_INST_NODE, RH_INST_PREFAB,
  RH_INST_X, RH_INST_Y, RH_INSTANCES, RH_ITEMS, RH_NODE_BOX, RH_NODE_START, RH_NODE_SUB, RH_PREFAB_BOX,
  RH_PREFAB_START, RH_RECTS, RH_RESULTS, RH_STACK, RS_FOUND, RS_INSTANCE_TESTS, RS_NODES, RS_RECT_TESTS,
  RS_CHAR_TESTS, SEARCH_BOXES, SEARCH_TREE, STACK_CAP,
} from "../layout/rects.ts";
import { headerF32, headerI32, setHeaderI32 } from "./header.ts";

// @ts-ignore: decorator
@inline export function rh(field: i32): i32 {
  return headerI32(RH, field);
}

// @ts-ignore: decorator
@inline export function rhF(field: i32): f64 {
  return <f64>headerF32(RH, field);
}

// @ts-ignore: decorator
@inline export function setRh(field: i32, value: i32): void {
  setHeaderI32(RH, field, value);
}

// Counters of the current call, flushed to the RS_* fields by flushStats.
export let nodeSteps = 0;
export let instanceTests = 0;
export let rectTests = 0;
export let charTests = 0;

/** Counts n rect tests (other files cannot assign an imported counter in JavaScript). */
export function countRectTests(n: i32): void { rectTests += n; }
/** Counts one character test. */
export function countCharTest(): void { charTests++; }

export function resetStats(): void {
  nodeSteps = 0; instanceTests = 0; rectTests = 0; charTests = 0;
}

export function flushStats(found: i32): void {
  setRh(RS_NODES, nodeSteps);
  setRh(RS_INSTANCE_TESTS, instanceTests);
  setRh(RS_RECT_TESTS, rectTests);
  setRh(RS_CHAR_TESTS, charTests);
  setRh(RS_FOUND, found);
}

// The world rect of the last worldRect call: x0, y0, x1, y1 as f64 (static scratch; wasm has no
// tuples, and the js backend boxes the doubles it keeps in module variables).
export const WORLD_RECT: i32 = <i32>memory.data(32, 8);

/** World box of prefab rect r placed by instance i, into WORLD_RECT. */
// @ts-ignore: decorator
@inline export function worldRect(i: i32, r: i32): void {
  worldRectInto(i, r, WORLD_RECT);
}

/**
 * World box of prefab rect r placed by instance i, as x0, y0, x1, y1 (f64) at `at`: translate, and
 * mirror inside the prefab's box.
 */
export function worldRectInto(i: i32, r: i32, at: i32): void {
  const rp = rh(RH_RECTS) + (r << 4);
  let x = <f64>load<f32>(rp), y = <f64>load<f32>(rp, 4);
  const w = <f64>load<f32>(rp, 8), h = <f64>load<f32>(rp, 12);
  const flags = load<i32>(rh(RH_INST_FLAGS) + (i << 2));
  if (flags & (MIRROR_X | MIRROR_Y)) {
    const bp = rh(RH_PREFAB_BOX) + (load<i32>(rh(RH_INST_PREFAB) + (i << 2)) << 4);
    // Mirroring keeps the prefab's box in place: x' = x0 + x1 - (x + w).
    if (flags & MIRROR_X) x = (<f64>load<f32>(bp) + <f64>load<f32>(bp, 8)) - (x + w);
    if (flags & MIRROR_Y) y = (<f64>load<f32>(bp, 4) + <f64>load<f32>(bp, 12)) - (y + h);
  }
  const x0 = <f64>load<f32>(rh(RH_INST_X) + (i << 2)) + x, y0 = <f64>load<f32>(rh(RH_INST_Y) + (i << 2)) + y;
  store<f64>(at, x0);
  store<f64>(at, y0, 8);
  store<f64>(at, x0 + w, 16);
  store<f64>(at, y0 + h, 24);
}

/** Closed overlap: touching boxes overlap (a character resting on the ground touches it). */
// @ts-ignore: decorator
@inline export function boxesOverlap(ax0: f64, ay0: f64, ax1: f64, ay1: f64, bx0: f64, by0: f64, bx1: f64, by1: f64): bool {
  return ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1;
}

// @ts-ignore: decorator
@inline function levelOffset(level: i32): i32 {
  return ((1 << (level << 1)) - 1) / 3;
}

/** Master boxes of the instances: the prefab's box, translated (mirroring leaves it in place). */
function instanceBoxes(n: i32): void {
  const pp = rh(RH_INST_PREFAB), xp = rh(RH_INST_X), yp = rh(RH_INST_Y), boxp = rh(RH_INST_BOX), pbp = rh(RH_PREFAB_BOX);
  for (let i = 0; i < n; i++) {
    const bp = pbp + (load<i32>(pp + (i << 2)) << 4);
    const tx = <f64>load<f32>(xp + (i << 2)), ty = <f64>load<f32>(yp + (i << 2));
    const o = boxp + (i << 5);
    store<f64>(o, tx + <f64>load<f32>(bp));
    store<f64>(o, ty + <f64>load<f32>(bp, 4), 8);
    store<f64>(o, tx + <f64>load<f32>(bp, 8), 16);
    store<f64>(o, ty + <f64>load<f32>(bp, 12), 24);
  }
}

/**
 * Builds the quadtree of depth `depth` over the instances (run after the level loads or changes).
 * Returns the number of nodes. The facade sized the node regions for this depth. It stays one
 * function of six commented passes (root, node boxes, home nodes, subtree counts, counting sort,
 * shift back) over the same locals: apart, each pass would read the header's pointers again.
 */
export function rectsBuild(depth: i32): i32 {
  const n = rh(RH_INSTANCES);
  if (depth < 0) depth = 0;
  if (depth > MAX_DEPTH) depth = MAX_DEPTH;
  instanceBoxes(n);
  const boxp = rh(RH_INST_BOX), nbp = rh(RH_NODE_BOX), startp = rh(RH_NODE_START), subp = rh(RH_NODE_SUB);
  const itemsp = rh(RH_ITEMS), nodep = rh(RH_INST_NODE);
  const nodes = levelOffset(depth + 1);
  // Root: the union of the master boxes.
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const o = boxp + (i << 5);
    x0 = min(x0, load<f64>(o)); y0 = min(y0, load<f64>(o, 8));
    x1 = max(x1, load<f64>(o, 16)); y1 = max(y1, load<f64>(o, 24));
  }
  if (n == 0) { x0 = 0; y0 = 0; x1 = 0; y1 = 0; }
  store<f64>(nbp, x0); store<f64>(nbp, y0, 8); store<f64>(nbp, x1, 16); store<f64>(nbp, y1, 24);
  // Node boxes top-down: each child is a quadrant of its parent, split at the parent's midlines.
  for (let L = 0; L < depth; L++) {
    const side = 1 << L, off = levelOffset(L), coff = levelOffset(L + 1);
    for (let iy = 0; iy < side; iy++) {
      for (let ix = 0; ix < side; ix++) {
        const p = nbp + ((off + iy * side + ix) << 5);
        const px0 = load<f64>(p), py0 = load<f64>(p, 8), px1 = load<f64>(p, 16), py1 = load<f64>(p, 24);
        const mx = (px0 + px1) * 0.5, my = (py0 + py1) * 0.5;
        for (let q = 0; q < 4; q++) {
          const cx = q & 1, cy = q >> 1;
          const c = nbp + ((coff + ((iy << 1) + cy) * (side << 1) + (ix << 1) + cx) << 5);
          store<f64>(c, cx ? mx : px0); store<f64>(c, cy ? my : py0, 8);
          store<f64>(c, cx ? px1 : mx, 16); store<f64>(c, cy ? py1 : my, 24);
        }
      }
    }
  }
  // Home node of each instance: descend while its box fits in one quadrant; count per node.
  memory.fill(startp, 0, (nodes + 1) << 2);
  for (let i = 0; i < n; i++) {
    const o = boxp + (i << 5);
    const bx0 = load<f64>(o), by0 = load<f64>(o, 8), bx1 = load<f64>(o, 16), by1 = load<f64>(o, 24);
    let L = 0, ix = 0, iy = 0;
    while (L < depth) {
      const p = nbp + ((levelOffset(L) + iy * (1 << L) + ix) << 5);
      const mx = (load<f64>(p) + load<f64>(p, 16)) * 0.5, my = (load<f64>(p, 8) + load<f64>(p, 24)) * 0.5;
      let cx = -1, cy = -1;
      if (bx1 <= mx) cx = 0; else if (bx0 >= mx) cx = 1;
      if (by1 <= my) cy = 0; else if (by0 >= my) cy = 1;
      if (cx < 0 || cy < 0) break; // straddles a midline: stays here
      L++; ix = (ix << 1) + cx; iy = (iy << 1) + cy;
    }
    const node = levelOffset(L) + iy * (1 << L) + ix;
    store<i32>(nodep + (i << 2), node);
    const sp = startp + (node << 2);
    store<i32>(sp, load<i32>(sp) + 1);
  }
  // Subtree counts, bottom-up, from the per-node counts.
  for (let k = 0; k < nodes; k++) store<i32>(subp + (k << 2), load<i32>(startp + (k << 2)));
  for (let L = depth - 1; L >= 0; L--) {
    const side = 1 << L, off = levelOffset(L), coff = levelOffset(L + 1);
    for (let iy = 0; iy < side; iy++) {
      for (let ix = 0; ix < side; ix++) {
        let s = 0;
        for (let q = 0; q < 4; q++) {
          s += load<i32>(subp + ((coff + ((iy << 1) + (q >> 1)) * (side << 1) + (ix << 1) + (q & 1)) << 2));
        }
        const p = subp + ((off + iy * side + ix) << 2);
        store<i32>(p, load<i32>(p) + s);
      }
    }
  }
  // Counting sort: per-node counts become starts; items in instance order within a node.
  let run = 0;
  for (let k = 0; k < nodes; k++) {
    const p = startp + (k << 2);
    const c = load<i32>(p);
    store<i32>(p, run);
    run += c;
  }
  store<i32>(startp + (nodes << 2), run);
  for (let i = 0; i < n; i++) {
    const p = startp + (load<i32>(nodep + (i << 2)) << 2);
    const at = load<i32>(p);
    store<i32>(itemsp + (at << 2), i);
    store<i32>(p, at + 1);
  }
  // Each start was advanced to its node's end: shift back by one node.
  for (let k = nodes; k > 0; k--) store<i32>(startp + (k << 2), load<i32>(startp + ((k - 1) << 2)));
  store<i32>(startp, 0);
  setRh(RH_DEPTH, depth);
  return nodes;
}

/**
 * Instances whose master box overlaps (x0, y0, x1, y1), written to `out` (i32 pointer); returns
 * their number. Counts node steps and instance tests into the current call's stats. The box goes
 * to memory for treeQueryAt, the one walk.
 */
export function treeQuery(x0: f64, y0: f64, x1: f64, y1: f64, out: i32): i32 {
  store<f64>(QUERY_BOX, x0);
  store<f64>(QUERY_BOX, y0, 8);
  store<f64>(QUERY_BOX, x1, 16);
  store<f64>(QUERY_BOX, y1, 24);
  return treeQueryAt(QUERY_BOX, out);
}

// treeQuery's box (static scratch, not an allocation).
const QUERY_BOX: i32 = <i32>memory.data(32, 8);

/**
 * treeQuery for a box held in memory (x0, y0, x1, y1 as f64 at `box`): the quadtree walk. The other
 * parts' steps (balls, tile characters) call it with their box in scratch: the js backend boxes a
 * double passed to a call V8 does not inline. Counts node steps and instance tests into the
 * current call's stats (a rect-level call resets them first).
 */
export function treeQueryAt(box: i32, out: i32): i32 {
  const depth = rh(RH_DEPTH);
  const nbp = rh(RH_NODE_BOX), startp = rh(RH_NODE_START), subp = rh(RH_NODE_SUB), itemsp = rh(RH_ITEMS);
  const boxp = rh(RH_INST_BOX), stackp = rh(RH_STACK);
  const x0 = load<f64>(box), y0 = load<f64>(box, 8), x1 = load<f64>(box, 16), y1 = load<f64>(box, 24);
  if (depth < 0 || load<i32>(subp) == 0) return 0;
  // The root holds the union of the boxes: a query outside it cannot find anything.
  if (!boxesOverlap(x0, y0, x1, y1, load<f64>(nbp), load<f64>(nbp, 8), load<f64>(nbp, 16), load<f64>(nbp, 24))) return 0;
  let found = 0, top = 1;
  store<i32>(stackp, 0); // packed node: level << 24 | iy << 12 | ix
  while (top > 0) {
    top--;
    const packed = load<i32>(stackp + (top << 2));
    const L = packed >>> 24, iy = (packed >>> 12) & 0xfff, ix = packed & 0xfff;
    const node = levelOffset(L) + iy * (1 << L) + ix;
    // Instances living here: test their master boxes (counted per node). One `continue` per side,
    // each load behind its own branch, so the test stops at the first side that misses. The other
    // spellings lose that in the js translation, where V8 runs them slower: binaryen folds
    // boxesOverlap over four loaded arguments into an `&` of four comparisons (four loads a box),
    // wasm2js's optimizer, which ignores traps, pairs nested ifs into `&`s of two, and it turns an
    // `&&` chain into ifs whose result mixes booleans with 0. The wasm runs these branches at least
    // as fast, as the boxes of the visited nodes lie near the query; bruteQuery keeps the
    // branchless test, since over every box of the level its branches mispredict (the wasm ran
    // it at less than half the speed).
    const start = load<i32>(startp + (node << 2)), end = load<i32>(startp + ((node + 1) << 2));
    instanceTests += end - start;
    for (let k = start; k < end; k++) {
      const i = load<i32>(itemsp + (k << 2));
      const o = boxp + (i << 5);
      if (!(x0 <= load<f64>(o, 16))) continue;
      if (!(load<f64>(o) <= x1)) continue;
      if (!(y0 <= load<f64>(o, 24))) continue;
      if (!(load<f64>(o, 8) <= y1)) continue;
      store<i32>(out + (found << 2), i);
      found++;
    }
    if (L >= depth) continue;
    // One step: which quadrants does the query reach? (closed, like the overlap test)
    nodeSteps++;
    const p = nbp + (node << 5);
    const mx = (load<f64>(p) + load<f64>(p, 16)) * 0.5, my = (load<f64>(p, 8) + load<f64>(p, 24)) * 0.5;
    const left = x0 <= mx, right = x1 >= mx, up = y0 <= my, down = y1 >= my;
    const coff = levelOffset(L + 1), cside = 2 << L;
    // Pushed in reverse so children pop in index order (top-left first). Two `continue`s rather
    // than `||`, which binaryen makes a branchless `|` of two booleans in the js translation.
    for (let q = 3; q >= 0; q--) {
      const cx = q & 1, cy = q >> 1;
      if (!(cx ? right : left)) continue;
      if (!(cy ? down : up)) continue;
      const cix = (ix << 1) + cx, ciy = (iy << 1) + cy;
      if (load<i32>(subp + ((coff + ciy * cside + cix) << 2)) == 0) continue;
      if (top < STACK_CAP) {
        store<i32>(stackp + (top << 2), ((L + 1) << 24) | (ciy << 12) | cix);
        top++;
      }
    }
  }
  return found;
}

/** Same answer as treeQuery by testing every master box (the brute force the tree replaces). */
export function bruteQuery(x0: f64, y0: f64, x1: f64, y1: f64, out: i32): i32 {
  const n = rh(RH_INSTANCES), boxp = rh(RH_INST_BOX);
  let found = 0;
  for (let i = 0; i < n; i++) {
    const o = boxp + (i << 5);
    instanceTests++;
    if (boxesOverlap(x0, y0, x1, y1, load<f64>(o), load<f64>(o, 8), load<f64>(o, 16), load<f64>(o, 24))) {
      store<i32>(out + (found << 2), i);
      found++;
    }
  }
  return found;
}

/** Candidate instances for a box by SEARCH_* mode (SEARCH_FLAT: all of them, untested); returns their number. */
/** findCandidates for a box held in memory (x0, y0, x1, y1 as f64 at `box`): no double crosses the call. */
export function findCandidatesAt(search: i32, box: i32, out: i32): i32 {
  if (search == SEARCH_TREE) return treeQueryAt(box, out);
  return findCandidates(search, load<f64>(box), load<f64>(box, 8), load<f64>(box, 16), load<f64>(box, 24), out);
}

export function findCandidates(search: i32, x0: f64, y0: f64, x1: f64, y1: f64, out: i32): i32 {
  if (search == SEARCH_TREE) return treeQuery(x0, y0, x1, y1, out);
  if (search == SEARCH_BOXES) return bruteQuery(x0, y0, x1, y1, out);
  const n = rh(RH_INSTANCES);
  for (let i = 0; i < n; i++) store<i32>(out + (i << 2), i);
  return n;
}

/** Instances whose master box overlaps the box (culling and collision); returns their number, ids in RH_RESULTS. */
export function rectsQueryBox(x0: f64, y0: f64, x1: f64, y1: f64, search: i32): i32 {
  resetStats();
  const n = search == SEARCH_TREE ? treeQuery(x0, y0, x1, y1, rh(RH_RESULTS)) : bruteQuery(x0, y0, x1, y1, rh(RH_RESULTS));
  flushStats(n);
  return n;
}

/** First and one-past-last global rect index of instance i's prefab. */
// @ts-ignore: decorator
@inline export function rectStart(i: i32): i32 {
  return load<i32>(rh(RH_PREFAB_START) + (load<i32>(rh(RH_INST_PREFAB) + (i << 2)) << 2));
}

// @ts-ignore: decorator
@inline export function rectEnd(i: i32): i32 {
  return load<i32>(rh(RH_PREFAB_START) + ((load<i32>(rh(RH_INST_PREFAB) + (i << 2)) + 1) << 2));
}
