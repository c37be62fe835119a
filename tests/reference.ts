// The brute-force reference: every pair tested with the seed's functions, retyped here from the
// tutorial text (not imported from the library) so a bug in the library cannot hide in both.
import type { World } from "../bindings/node.js";

const POINT = 1, CIRCLE = 2; // anything else is a rect

function isPointRectangleCollision(px: number, py: number, left: number, top: number, right: number, bottom: number) {
  return px > left && px < right && py > top && py < bottom;
}

function isPointCircleCollision(px: number, py: number, cx: number, cy: number, r: number) {
  const dx = px - cx, dy = py - cy;
  return dx ** 2 + dy ** 2 < r ** 2;
}

function isRectangleCollision(l1: number, t1: number, r1: number, b1: number, l2: number, t2: number, r2: number, b2: number) {
  if (r1 < l2) return false;
  if (l1 > r2) return false;
  if (b1 < t2) return false;
  if (t1 > b2) return false;
  return true;
}

function isCircleCollision(x1: number, y1: number, ra: number, x2: number, y2: number, rb: number) {
  const dx = x1 - x2, dy = y1 - y2;
  return dx ** 2 + dy ** 2 < (ra + rb) ** 2;
}

function isRectangleCircleCollision(left: number, top: number, right: number, bottom: number, cx: number, cy: number, r: number) {
  if (cx + r < left) return false;
  if (cx - r > right) return false;
  if (cy + r < top) return false;
  if (cy - r > bottom) return false;
  let dx: number | null = null, dy: number | null = null;
  if (cx < left) {
    if (cy < top) { dx = cx - left; dy = cy - top; } else if (cy > bottom) { dx = cx - left; dy = cy - bottom; }
  } else if (cx > right) {
    if (cy < top) { dx = cx - right; dy = cy - top; } else if (cy > bottom) { dx = cx - right; dy = cy - bottom; }
  }
  if (dx !== null && dy !== null) return dx ** 2 + dy ** 2 < r ** 2;
  return true;
}

export interface Shape { kind: number; x: number; y: number; a: number; b: number }

export function shapeAt(world: World, slot: number): Shape {
  return { kind: world.kinds[slot], x: world.x[slot], y: world.y[slot], a: world.a[slot], b: world.b[slot] };
}

export function refOverlap(p: Shape, q: Shape): boolean {
  if (p.kind > q.kind) return refOverlap(q, p);
  if (p.kind === POINT) {
    if (q.kind === POINT) return p.x === q.x && p.y === q.y;
    if (q.kind === CIRCLE) return isPointCircleCollision(p.x, p.y, q.x, q.y, q.a);
    return isPointRectangleCollision(p.x, p.y, q.x, q.y, q.x + q.a, q.y + q.b);
  }
  if (p.kind === CIRCLE) {
    if (q.kind === CIRCLE) return isCircleCollision(p.x, p.y, p.a, q.x, q.y, q.a);
    return isRectangleCircleCollision(q.x, q.y, q.x + q.a, q.y + q.b, p.x, p.y, p.a);
  }
  return isRectangleCollision(p.x, p.y, p.x + p.a, p.y + p.b, q.x, q.y, q.x + q.a, q.y + q.b);
}

function liveIn(world: World, mask: number): number[] {
  const out: number[] = [];
  for (let s = 0; s < world.count; s++) if (world.kinds[s] !== 0 && ((world.groups[s] & mask) >>> 0) !== 0) out.push(s);
  return out;
}

const key = (a: number, b: number) => a * 4194304 + b;

/** Every slot's shape, read once: the all-pairs loops below then allocate nothing per pair. */
function shapesOf(world: World): Shape[] {
  const out: Shape[] = [];
  for (let s = 0; s < world.count; s++) out.push(shapeAt(world, s));
  return out;
}

export function refSelfPairs(world: World, mask: number): number[] {
  const s = liveIn(world, mask), shapes = shapesOf(world), out: number[] = [];
  for (let p = 0; p < s.length; p++) {
    for (let q = p + 1; q < s.length; q++) {
      if (refOverlap(shapes[s[p]], shapes[s[q]])) out.push(key(s[p], s[q]));
    }
  }
  return out.sort((a, b) => a - b);
}

export function refCrossPairs(world: World, maskA: number, maskB: number): number[] {
  const A = liveIn(world, maskA), B = liveIn(world, maskB), shapes = shapesOf(world), out: number[] = [];
  for (const a of A) for (const b of B) if (a !== b && refOverlap(shapes[a], shapes[b])) out.push(key(a, b));
  return out.sort((x, y) => x - y);
}

/** The seed's scenario-2 loop: bullets in order, enemies in order, break at the first hit. */
export function refFirstHits(world: World, maskA: number, maskB: number, exclusive: boolean): { pairs: number[]; flags: number[] } {
  const A = liveIn(world, maskA), B = liveIn(world, maskB), shapes = shapesOf(world), pairs: number[] = [];
  const flags = new Array<number>(world.count).fill(0);
  for (const bullet of A) {
    for (const enemy of B) {
      if (enemy === bullet || (exclusive && flags[enemy] & 2)) continue;
      if (refOverlap(shapes[bullet], shapes[enemy])) {
        flags[enemy] |= 2;
        flags[bullet] |= 1;
        pairs.push(bullet, enemy);
        break;
      }
    }
  }
  return { pairs, flags };
}

export function refQuery(world: World, probe: Shape, mask: number, exclude = -1): number[] {
  return liveIn(world, mask).filter((s) => s !== exclude && refOverlap(probe, shapeAt(world, s)));
}
