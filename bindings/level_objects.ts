// Tiled object layers into the other stores, at load time: rectangle objects become instances of a
// RectLevel (one one-rect prefab per distinct size, so equal crates share their rect, and one
// instance per object, so the quadtree sees each one) and/or polyhedra of a Platforms
// level; polygon objects become polyhedra (split into convex parts); polyline objects become
// surfaces of the Platforms, one per segment. parseTiledMap gives them all in Tiled's y-down
// pixels, and RectLevel and Platforms are y-down too: nothing is flipped.
import { convexPartsYDown } from "./polygon.js";
import type { Platforms } from "./platforms.js";
import type { RectLevel } from "./rect_level.js";
import { coordOk, describe, HitcoreError, MAX_COORD } from "./validate.js";

/** What parseTiledMap (and `TileMap.objects`) returns for object layers. */
export interface LevelObjects {
  /** (x, y, w, h) per rectangle: min corner (the top-left), y-down. */
  readonly rects: Float32Array;
  /** The Tiled object of each rectangle (its id keys `byObjectId`). */
  readonly rectInfo?: readonly { readonly id: number }[];
  /** Vertices (x0, y0, x1, y1, ...) per polygon, y-down, either winding; `id` the Tiled object's. */
  readonly polygons: readonly { readonly vertices: Float32Array; readonly id?: number }[];
  /** Points (x0, y0, x1, y1, ...) per polyline, y-down, in the order drawn; `id` the Tiled object's. */
  readonly polylines?: readonly { readonly points: Float32Array; readonly id?: number }[];
}

export interface LevelObjectTargets {
  /** Receives the rectangles as instances (a prefab per distinct size). */
  rects?: RectLevel;
  /** Receives the polygons and polylines; also the rectangles (as 4-corner polyhedra) when `rectsAsPolyhedra`. */
  platforms?: Platforms;
  /** Rectangles also become polyhedra of `platforms` (default: only when there is no `rects` target). */
  rectsAsPolyhedra?: boolean;
}

/** What addLevelObjects made, and from which object: handles, each naming its part and kind. */
export interface LevelObjectsLoaded {
  /** The RectLevel instance of each rectangle, in order (empty without a rects target). */
  instances: number[];
  /** Polyhedron handles per polygon object, in order (each polygon may become several convex parts). */
  polygonParts: number[][];
  /** Polyhedron handles of the rectangles, when they went to `platforms`. */
  rectPolyhedra: number[];
  /**
   * Surface handles per polyline object, in order: one per segment, in the order drawn, less the
   * segments of zero length (both ends equal once rounded to f32), which are skipped. Empty without
   * a platforms target.
   */
  polylineSurfaces: number[][];
  /**
   * Every handle made from each Tiled object, by the object's id (instances, polyhedra and surfaces
   * alike; a handle tells its kind, IdKind.*). Objects that made nothing, or carry no id, are absent.
   */
  byObjectId: Map<number, number[]>;
}

/**
 * Adds Tiled objects to the given stores. Every object is checked before anything is added, so a
 * rejected call (a degenerate polygon, a bad rectangle or polyline) leaves both stores unchanged.
 */
export function addLevelObjects(objects: LevelObjects, targets: LevelObjectTargets): LevelObjectsLoaded {
  if (typeof objects !== "object" || objects === null) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: objects must be a TiledMap's objects ({ rects, polygons, polylines }), got ${describe(objects)}.`);
  if (typeof targets !== "object" || targets === null) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: targets must be { rects, platforms }, got ${describe(targets)}.`);
  const { rects, polygons = [] } = objects, polylines = objects.polylines ?? [];
  if (!ArrayBuffer.isView(rects) && !Array.isArray(rects)) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: rects must be a Float32Array of (x, y, w, h) quadruples, got ${describe(rects)}.`);
  if (!Array.isArray(polygons) || !Array.isArray(polylines)) throw new HitcoreError("INVALID_OBJECTS", "addLevelObjects: polygons and polylines must be arrays of { vertices } and { points }.");
  const count = rects.length >> 2;
  if (rects.length % 4 !== 0) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: rects must hold (x, y, w, h) quadruples, got length ${rects.length}.`);
  if ((targets.rects !== undefined && typeof targets.rects?.addPrefab !== "function") || (targets.platforms !== undefined && typeof targets.platforms?.addPolygon !== "function")) {
    throw new HitcoreError("INVALID_OBJECTS", "addLevelObjects: targets.rects must be a RectLevel and targets.platforms a Platforms (world.addRectLevel(), world.addPlatforms()).");
  }
  const toRects = targets.rects !== undefined && count > 0;
  const toPolyhedra = targets.platforms !== undefined && (targets.rectsAsPolyhedra ?? targets.rects === undefined);
  // Every number as the stores will hold it (f32, within MAX_COORD; corners too where a rectangle
  // becomes a polyhedron), so that no add below can refuse what this let through.
  for (let r = 0; r < count; r++) {
    const x = rects[4 * r], y = rects[4 * r + 1], w = rects[4 * r + 2], h = rects[4 * r + 3];
    const bad = !coordOk(x) ? ["coordinate", x] : !coordOk(y) ? ["coordinate", y] : !coordOk(w) || w < 0 ? ["size", w] : !coordOk(h) || h < 0 ? ["size", h] :
      toPolyhedra && !coordOk(x + w) ? ["right edge", x + w] : toPolyhedra && !coordOk(y + h) ? ["bottom edge", y + h] : null;
    if (bad) {
      throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: rectangle ${r}${idOf(objects.rectInfo?.[r] ?? {})} has ${bad[0]} ${describe(bad[1])}; ` +
        `coordinates must be finite numbers of magnitude at most ${MAX_COORD} (as f32), sizes too and >= 0. Nothing was added.`);
    }
  }
  // Clean and split every polygon first: addPolygon would throw half-way through the list.
  if (targets.platforms) for (let p = 0; p < polygons.length; p++) {
    try {
      if (typeof polygons[p] !== "object" || polygons[p] === null) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: polygon object ${p} must be { vertices }, got ${describe(polygons[p])}.`);
      convexPartsYDown("addLevelObjects", polygons[p].vertices);
    } catch (e) {
      if (e instanceof HitcoreError) throw new HitcoreError(e.code, `polygon object ${p}: ${e.message.replace(/^hitcore: /, "")}`);
      throw e;
    }
  }
  // Polylines: 2 or more points, finite, within MAX_COORD (parseTiledMap checked its own; these may come from elsewhere).
  if (targets.platforms) for (let p = 0; p < polylines.length; p++) {
    if (typeof polylines[p] !== "object" || polylines[p] === null) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: polyline object ${p} must be { points }, got ${describe(polylines[p])}.`);
    const pts = polylines[p].points;
    if (!pts || typeof pts.length !== "number" || pts.length < 4 || pts.length % 2 !== 0) {
      throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: polyline object ${p}${idOf(polylines[p])} must hold 2 or more (x, y) points, got ${pts?.length} numbers.`);
    }
    for (let k = 0; k < pts.length; k++) {
      if (!coordOk(pts[k])) {
        throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: polyline object ${p}${idOf(polylines[p])} has ${k & 1 ? "y" : "x"} = ${describe(pts[k])} at point ${k >> 1}; coordinates must be finite, at most ${MAX_COORD}.`);
      }
    }
  }
  const loaded: LevelObjectsLoaded = { instances: [], polygonParts: [], rectPolyhedra: [], polylineSurfaces: [], byObjectId: new Map() };
  const from = (id: number | undefined, handles: number[]) => {
    if (id === undefined || handles.length === 0) return;
    const list = loaded.byObjectId.get(id);
    if (list) list.push(...handles);
    else loaded.byObjectId.set(id, handles.slice());
  };
  const rectIds = objects.rectInfo;
  if (toRects) {
    const level = targets.rects!;
    const prefabOfSize = new Map<string, number>();
    for (let r = 0; r < count; r++) {
      const w = rects[4 * r + 2], h = rects[4 * r + 3], key = `${w}x${h}`;
      let prefab = prefabOfSize.get(key);
      if (prefab === undefined) {
        prefab = level.addPrefab([0, 0, w, h]);
        prefabOfSize.set(key, prefab);
      }
      const instance = level.addInstance(prefab, rects[4 * r], rects[4 * r + 1]);
      loaded.instances.push(instance);
      from(rectIds?.[r]?.id, [instance]);
    }
  }
  const platforms = targets.platforms;
  if (platforms) {
    for (const polygon of polygons) {
      const parts = platforms.addPolygon(polygon.vertices);
      loaded.polygonParts.push(parts);
      from(polygon.id, parts);
    }
    if (toPolyhedra) {
      for (let r = 0; r < count; r++) {
        const x = rects[4 * r], y = rects[4 * r + 1], w = rects[4 * r + 2], h = rects[4 * r + 3];
        const f = Math.fround;
        if (f(x + w) === f(x) || f(y + h) === f(y)) continue; // no area once stored as f32: nothing for a polyhedron to hold
        const parts = platforms.addPolygon([x, y, x + w, y, x + w, y + h, x, y + h]);
        loaded.rectPolyhedra.push(...parts);
        from(rectIds?.[r]?.id, parts);
      }
    }
    for (const polyline of polylines) {
      const lines = segmentsOf(polyline.points);
      const surfaces = lines.length > 0 ? platforms.addSurfaces(lines) : [];
      loaded.polylineSurfaces.push(surfaces);
      from(polyline.id, surfaces);
    }
  }
  return loaded;
}

/** A polyline's segments as a flat [x0, y0, x1, y1, ...] list, without those of zero length once stored as f32 (addSurfaces refuses them). */
function segmentsOf(points: ArrayLike<number>): number[] {
  const f = Math.fround, lines: number[] = [];
  for (let k = 0; k + 3 < points.length; k += 2) {
    const x0 = points[k], y0 = points[k + 1], x1 = points[k + 2], y1 = points[k + 3];
    if (f(x0) === f(x1) && f(y0) === f(y1)) continue;
    lines.push(x0, y0, x1, y1);
  }
  return lines;
}

function idOf(object: { readonly id?: number }): string {
  return object.id === undefined ? "" : ` (Tiled id ${object.id})`;
}
