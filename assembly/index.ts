// hitcore's core: free functions over the flat stores laid out in layout/. The core never
// allocates: the facade owns the layout and grows memory; the core only reads and writes the
// regions the header points at. asc compiles it to the two wasm cores; the js backend is the scalar
// core translated by wasm2js (scripts/build_js.mjs). Imports name their ".ts" files, which
// AssemblyScript resolves in imports but not in `export ... from`, so each export is imported first.
import { buildGrid, crossPairs, firstHits, queryProbe, selfPairs } from "./grid/index.ts";
import { setPositions } from "./positions.ts";
import { rectsBuild, rectsQueryBox } from "./rect_level.ts";
import { rectsStepCharacters } from "./characters.ts";
import { rectsCast, rectsMoveProjectiles } from "./casts.ts";
import { castBox, castSegment, insidePolyhedra, stepBalls, touchSurfaces } from "./balls.ts";
import { collidePoints, moveBoxes } from "./tile_map.ts";
import { stepControllers } from "./tile_controller.ts";
import { castLevel, castLevelMany, moveBodies } from "./moves.ts";
import { overlapLevel } from "./overlaps.ts";
import { controllerContacts } from "./contacts.ts";
import { heapBase, maxI32 } from "./memory.ts";
import { ARENA_BASE } from "../layout/grid.ts";

export { buildGrid, crossPairs, firstHits, queryProbe, selfPairs, setPositions };
export { rectsBuild, rectsQueryBox, rectsStepCharacters, rectsCast, rectsMoveProjectiles };
export { castBox, castSegment, insidePolyhedra, stepBalls, touchSurfaces };
export { collidePoints, moveBoxes, stepControllers };
export { castLevel, castLevelMany, moveBodies, overlapLevel };
export { controllerContacts };

/** First byte the facade may use for its regions: ARENA_BASE, or past the static data if a build's reaches it. */
export function arenaBase(): i32 {
  return maxI32(heapBase(), ARENA_BASE);
}
