// Tiled object layers into the other stores, at load time: rectangle objects become instances of a
// RectLevel (one one-rect prefab per distinct size, so equal crates share their rect, and one
// instance per object, so the quadtree sees each one) and/or polyhedra of a Platforms
// level; polygon objects become polyhedra (split into convex parts). parseTiledMap gives both in
// Tiled's y-down pixels, and RectLevel and Platforms are y-down too: nothing is flipped.
import { convexPartsYDown } from "./polygon.js";
import type { Platforms } from "./platforms.js";
import type { RectLevel } from "./rect_level.js";
import { HitcoreError } from "./validate.js";

/** What parseTiledMap (and `TileMap.objects`) returns for object layers. */
export interface LevelObjects {
  /** (x, y, w, h) per rectangle: min corner (the top-left), y-down. */
  readonly rects: Float32Array;
  /** Vertices (x0, y0, x1, y1, ...) per polygon, y-down, either winding. */
  readonly polygons: readonly { readonly vertices: Float32Array }[];
}

export interface LevelObjectTargets {
  /** Receives the rectangles as instances (a prefab per distinct size). */
  rects?: RectLevel;
  /** Receives the polygons; also the rectangles (as 4-corner polyhedra) when `rectsAsPolyhedra`. */
  platforms?: Platforms;
  /** Rectangles also become polyhedra of `platforms` (default: only when there is no `rects` target). */
  rectsAsPolyhedra?: boolean;
}

export interface LevelObjectsLoaded {
  /** The RectLevel instance of each rectangle, in order (empty without a rects target). */
  instances: number[];
  /** Polyhedron ids per polygon object, in order (each polygon may become several convex parts). */
  polygonParts: number[][];
  /** Polyhedron ids of the rectangles, when they went to `platforms`. */
  rectPolyhedra: number[];
}

/**
 * Adds Tiled objects to the given stores. Every object is checked before anything is added, so a
 * rejected call (a degenerate polygon, a bad rectangle) leaves both stores unchanged.
 */
export function addLevelObjects(objects: LevelObjects, targets: LevelObjectTargets): LevelObjectsLoaded {
  const { rects, polygons } = objects;
  const count = rects.length >> 2;
  if (rects.length % 4 !== 0) throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: rects must hold (x, y, w, h) quadruples, got length ${rects.length}.`);
  for (let k = 0; k < rects.length; k++) {
    const v = rects[k];
    if (!Number.isFinite(v) || ((k & 3) >= 2 && v < 0)) {
      throw new HitcoreError("INVALID_OBJECTS", `addLevelObjects: rectangle ${k >> 2} has ${(k & 3) >= 2 ? "size" : "coordinate"} ${v}; sizes must be finite and >= 0, coordinates finite.`);
    }
  }
  const toRects = targets.rects !== undefined && count > 0;
  const toPolyhedra = targets.platforms !== undefined && (targets.rectsAsPolyhedra ?? targets.rects === undefined);
  // Clean and split every polygon first: addPolygon would throw half-way through the list.
  if (targets.platforms) for (let p = 0; p < polygons.length; p++) {
    try {
      convexPartsYDown("addLevelObjects", polygons[p].vertices);
    } catch (e) {
      if (e instanceof HitcoreError) throw new HitcoreError(e.code, `polygon object ${p}: ${e.message.replace(/^hitcore: /, "")}`);
      throw e;
    }
  }
  const loaded: LevelObjectsLoaded = { instances: [], polygonParts: [], rectPolyhedra: [] };
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
      loaded.instances.push(level.addInstance(prefab, rects[4 * r], rects[4 * r + 1]));
    }
  }
  const platforms = targets.platforms;
  if (platforms) {
    for (const polygon of polygons) loaded.polygonParts.push(platforms.addPolygon(polygon.vertices));
    if (toPolyhedra) {
      for (let r = 0; r < count; r++) {
        const x = rects[4 * r], y = rects[4 * r + 1], w = rects[4 * r + 2], h = rects[4 * r + 3];
        if (w === 0 || h === 0) continue; // no area: nothing for a polyhedron to hold
        loaded.rectPolyhedra.push(...platforms.addPolygon([x, y, x + w, y, x + w, y + h, x, y + h]));
      }
    }
  }
  return loaded;
}
