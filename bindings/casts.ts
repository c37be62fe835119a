// One cast across stores: a segment, ray, swept box or swept circle against a RectLevel's rects and
// a Platforms' surfaces and polyhedra in one call, keeping the closest hit. Each store runs its own
// cast (its own kernel and memory); this module validates once up front, so bad input throws
// before any store is touched, and copies the winner into a result object backed by typed arrays
// (a double stored in an object field is boxed on every write), so a cast allocates nothing.
import type { Platforms } from "./platforms.js";
import type { RectLevel } from "./rect_level.js";
import { checkCoord, checkSize, HitcoreError } from "./validate.js";

/** The stores a cast runs against; either may be left out. */
export interface CastStores {
  rects?: RectLevel | null;
  platforms?: Platforms | null;
}

/** Which store the closest hit came from. */
export const STORE_NONE = 0;
export const STORE_RECTS = 1;
export const STORE_PLATFORMS = 2;

const T = 0, DIST = 1, X = 2, Y = 3, NX = 4, NY = 5;
const STORE = 0, KIND = 1, ID = 2, RECT = 3;

/** The closest hit of the last cross-store cast into it: getters over typed arrays, overwritten by each cast. */
export class StoreHit {
  /** @internal t, distance, x, y, nx, ny */
  readonly real = new Float64Array(6);
  /** @internal store, kind, id, rect */
  readonly int = new Int32Array(4);

  /** STORE_RECTS, STORE_PLATFORMS, or STORE_NONE after a miss. */
  get store(): number { return this.int[STORE]; }
  /** Platforms: HIT_SURFACE or HIT_POLYHEDRON; rects: 0. */
  get kind(): number { return this.int[KIND]; }
  /** Platforms: the surface or polyhedron id; rects: the instance; -1 after a miss. */
  get id(): number { return this.int[ID]; }
  /** Rects: the prefab rect within the instance's prefab; -1 otherwise. */
  get rect(): number { return this.int[RECT]; }
  /** Fraction of the motion travelled before contact (1 after a miss). */
  get t(): number { return this.real[T]; }
  /** Distance travelled before contact. */
  get distance(): number { return this.real[DIST]; }
  /** Where the cast point (the centre of the box or circle) is at contact (the end after a miss). */
  get x(): number { return this.real[X]; }
  get y(): number { return this.real[Y]; }
  /** Unit normal of what was hit, pointing back at the caster ((0, 0) for a rect cast that started inside). */
  get nx(): number { return this.real[NX]; }
  get ny(): number { return this.real[NY]; }

  /** @internal A miss of a motion from (x + ox, y + oy) by (dx, dy) scaled by k (computed here: a double passed to a call that is not inlined is boxed). */
  miss(x: number, y: number, ox: number, oy: number, dx: number, dy: number, k: number): void {
    const r = this.real, i = this.int;
    r[T] = 1; r[DIST] = Math.sqrt(dx * dx + dy * dy) * k; r[X] = x + ox + dx * k; r[Y] = y + oy + dy * k; r[NX] = 0; r[NY] = 0;
    i[STORE] = STORE_NONE; i[KIND] = 0; i[ID] = -1; i[RECT] = -1;
  }

  /** @internal */
  take(store: number, kind: number, id: number, rect: number, t: number, distance: number, x: number, y: number, nx: number, ny: number): void {
    const r = this.real, i = this.int;
    r[T] = t; r[DIST] = distance; r[X] = x; r[Y] = y; r[NX] = nx; r[NY] = ny;
    i[STORE] = store; i[KIND] = kind; i[ID] = id; i[RECT] = rect;
  }
}

/** The module's own result, used when a cast is given none. */
export const castHit = new StoreHit();

function checkMotion(method: string, stores: CastStores, x: number, y: number, dx: number, dy: number): void {
  if (stores === null || typeof stores !== "object") {
    throw new HitcoreError("INVALID_ARGUMENT", `${method}: stores must be an object such as { rects, platforms }, got ${String(stores)}.`);
  }
  checkCoord(method, "x", x); checkCoord(method, "y", y); checkCoord(method, "dx", dx); checkCoord(method, "dy", dy);
}

function checkRadius(method: string, stores: CastStores, r: number): void {
  checkSize(method, "radius", r);
  const p = stores.platforms;
  if (p && r > p.maxRadius) {
    throw new HitcoreError("RADIUS_TOO_LARGE", `${method}: radius ${r} is above the platforms' maxRadius ${p.maxRadius}, which their grid covers. Create the platforms with a larger maxRadius.`);
  }
}

// Scratch for a platforms hit: Platforms.hit's getters return doubles, boxed when not inlined.
const scratchReal = new Float64Array(6);
const scratchInt = new Int32Array(2);

/** Keeps the platforms' hit when it is strictly closer than what `out` holds (ties go to the rects). */
function offerPlatforms(p: Platforms, out: StoreHit, hadHit: boolean): boolean {
  p.hitInto(scratchReal, scratchInt);
  const real = out.real, int = out.int;
  if (hadHit && !(scratchReal[0] < real[0])) return true;
  real.set(scratchReal);
  int[STORE] = STORE_PLATFORMS; int[KIND] = scratchInt[0]; int[ID] = scratchInt[1]; int[RECT] = -1;
  return true;
}

function offerRects(r: RectLevel, out: StoreHit): boolean {
  const h = r.hit;
  out.take(STORE_RECTS, 0, h.instance, h.rect, h.t, h.distance, h.x, h.y, h.nx, h.ny);
  return true;
}

/** A point moving from (x, y) by (dx, dy) against every store: true on a hit, the closest in `out`. */
export function castSegment(stores: CastStores, x: number, y: number, dx: number, dy: number, out: StoreHit = castHit): boolean {
  checkMotion("castSegment", stores, x, y, dx, dy);
  out.miss(x, y, 0, 0, dx, dy, 1);
  let hit = false;
  if (stores.rects && stores.rects.castSegment(x, y, dx, dy)) hit = offerRects(stores.rects, out);
  if (stores.platforms && stores.platforms.castSegment(x, y, dx, dy)) hit = offerPlatforms(stores.platforms, out, hit);
  return hit;
}

/** A ray from (x, y) along (dirX, dirY) up to maxDistance against every store: true on a hit, the closest in `out`. */
export function castRay(stores: CastStores, x: number, y: number, dirX: number, dirY: number, maxDistance: number, out: StoreHit = castHit): boolean {
  checkMotion("castRay", stores, x, y, dirX, dirY);
  checkSize("castRay", "maxDistance", maxDistance);
  const len = Math.sqrt(dirX * dirX + dirY * dirY); // not Math.hypot: it allocates per call in V8
  if (!(len > 0)) throw new HitcoreError("INVALID_DIRECTION", "castRay: the direction is (0, 0). Pass a non-zero direction.");
  out.miss(x, y, 0, 0, dirX, dirY, maxDistance / len);
  let hit = false;
  if (stores.rects && stores.rects.castRay(x, y, dirX, dirY, maxDistance)) hit = offerRects(stores.rects, out);
  if (stores.platforms && stores.platforms.castRay(x, y, dirX, dirY, maxDistance)) hit = offerPlatforms(stores.platforms, out, hit);
  return hit;
}

/**
 * A box (min corner x, y: the top-left in y-down coordinates; size w x h) swept by (dx, dy)
 * against every store: true on a hit, the closest in `out` (x, y: the box's centre at contact).
 * With platforms, the box's half diagonal must be at most their maxRadius.
 */
export function castBox(stores: CastStores, x: number, y: number, w: number, h: number, dx: number, dy: number, out: StoreHit = castHit): boolean {
  checkMotion("castBox", stores, x, y, dx, dy);
  checkSize("castBox", "width", w);
  checkSize("castBox", "height", h);
  const p = stores.platforms;
  const half = Math.sqrt(w * w + h * h) / 2;
  if (p && !(half <= p.maxRadius)) {
    throw new HitcoreError("BOX_TOO_LARGE", `castBox: a ${w} x ${h} box has half diagonal ${half}, above the platforms' maxRadius ${p.maxRadius}, which their grid covers. Create the platforms with maxRadius >= the half diagonal of the largest box you cast.`);
  }
  out.miss(x, y, w / 2, h / 2, dx, dy, 1);
  let hit = false;
  if (stores.rects && stores.rects.castBox(x, y, w, h, dx, dy)) hit = offerRects(stores.rects, out);
  if (p && p.castBox(x, y, w, h, dx, dy)) hit = offerPlatforms(p, out, hit);
  return hit;
}

/** A circle (centre x, y, radius r) swept by (dx, dy) against every store: true on a hit, the closest in `out`. */
export function castCircle(stores: CastStores, x: number, y: number, r: number, dx: number, dy: number, out: StoreHit = castHit): boolean {
  checkMotion("castCircle", stores, x, y, dx, dy);
  checkRadius("castCircle", stores, r);
  out.miss(x, y, 0, 0, dx, dy, 1);
  let hit = false;
  if (stores.rects && stores.rects.castCircle(x, y, r, dx, dy)) hit = offerRects(stores.rects, out);
  if (stores.platforms && stores.platforms.castCircle(x, y, r, dx, dy)) hit = offerPlatforms(stores.platforms, out, hit);
  return hit;
}
