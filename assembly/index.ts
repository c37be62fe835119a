// hitcore's wasm core: free functions over the flat stores laid out in bindings/layout.ts.
// The core never allocates: the facade owns the layout and grows memory; the core only reads
// and writes the regions the header points at.
export { buildGrid, crossPairs, firstHits, queryProbe, selfPairs } from "./bucket_grid";
export { setPositions } from "./positions";

/** First byte the facade may use for its regions: past the header and the static data. */
export function arenaBase(): i32 {
  return <i32>((__heap_base + 15) & ~15);
}
export { rectsBuild, rectsQueryBox } from "./rect_level";
export { rectsStepCharacters } from "./characters";
export { rectsCast, rectsMoveProjectiles } from "./casts";
export { castSegment, insidePolyhedra, stepBalls, touchSurfaces } from "./balls";
export { collidePoints, moveBoxes } from "./tile_map";
export { stepControllers } from "./tile_controller";
export { castBox } from "./balls";
