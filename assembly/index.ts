// hitcore's core: free functions over the flat stores laid out in layout/. The core never
// allocates: the facade owns the layout and grows memory; the core only reads and writes the
// regions the header points at. asc compiles it to the two wasm cores; the js backend is the scalar
// core translated by wasm2js (scripts/build_js.mjs). Imports name their ".ts" files, which
// AssemblyScript resolves in imports but not in `export ... from`, so each export is imported first.
import { buildGrid, crossPairs, firstHits, invalidSlots, queryProbe, selfPairs } from "./grid/index.ts";
import { setPositions } from "./positions.ts";
import { rectsBuild, rectsQueryBox } from "./rect_level.ts";
import { rectsStepCharacters } from "./characters.ts";
import { rectsCast, rectsMoveProjectiles } from "./casts.ts";
import { castBox, castSegment, insidePolyhedra, stepBalls, touchSurfaces } from "./balls.ts";
import { collidePoints, moveBoxes } from "./tile_map.ts";
import { stepControllers } from "./tile_controller.ts";
import { castLevel, castLevelMany, moveBodies, moveRefused } from "./moves.ts";
import { overlapLevel, overlapRefused } from "./overlaps.ts";
import { controllerContacts } from "./contacts.ts";
import { heapBase, maxI32 } from "./memory.ts";
import { setHdr } from "./header.ts";
import { ARENA_BASE, S_INVALID } from "../layout/grid.ts";

export { buildGrid, crossPairs, firstHits, invalidSlots, queryProbe, selfPairs, setPositions };
export { rectsBuild, rectsQueryBox, rectsStepCharacters, rectsCast, rectsMoveProjectiles };
export { castBox, castSegment, insidePolyhedra, stepBalls, touchSurfaces };
export { collidePoints, moveBoxes, stepControllers };
export { castLevel, castLevelMany, moveBodies, overlapLevel };
export { controllerContacts };

/**
 * 1 when a live body in [0, count) within mask holds a value moveBodies (`move` != 0) or
 * overlapLevel cannot take, with S_INVALID and S_FIRST_INVALID set as those calls set them; else 0.
 * Writes nothing else: the facade asks it before readying regions for one of those calls, so that
 * a refused call changes nothing.
 */
export function bodiesRefused(count: i32, mask: u32, move: i32): i32 {
  setHdr(S_INVALID, 0);
  return (move != 0 ? moveRefused(count, mask) : overlapRefused(count, mask)) ? 1 : 0;
}

/** First byte the facade may use for its regions: ARENA_BASE, or past the static data if a build's reaches it. */
export function arenaBase(): i32 {
  return maxI32(heapBase(), ARENA_BASE);
}
