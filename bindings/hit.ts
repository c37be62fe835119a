// The one hit record of every cast: the world's casts (world.hit), a rect level's (RectLevel.hit)
// and the platforms' (Platforms.hit) all fill a Hit, naming the part and shape hit the same way.
import { PART_NONE, PART_POLYHEDRA, PART_RECTS, PART_SURFACES, PART_TILES } from "../layout/moves.js";

/** The part of the level a hit is on (Hit.part, world.hitPart, world.castHitInts). */
export const Part = { None: PART_NONE, Tiles: PART_TILES, Rects: PART_RECTS, Surfaces: PART_SURFACES, Polyhedra: PART_POLYHEDRA } as const;

/**
 * What part and shape a cast hit, when and where, and the normal. Getters over typed arrays,
 * overwritten by each cast of its owner (a double stored in an object field is boxed on every
 * write, so a cast into it allocates nothing).
 */
export class Hit {
  /** @internal t, distance, x, y, nx, ny */
  readonly real = new Float64Array(6);
  /** @internal part, shape, rect */
  readonly int = new Int32Array([PART_NONE, -1, -1]);

  constructor() {
    this.real[0] = 1; // t after a miss
  }

  /** Part.* of the closest hit; Part.None after a miss. */
  get part(): number { return this.int[0]; }
  /** The tile cell (row * cols + col; -1 outside the map), rect instance, surface or polyhedron hit; -1 after a miss. */
  get shape(): number { return this.int[1]; }
  /** The rect within the instance's prefab for a rect hit; -1 otherwise. */
  get rect(): number { return this.int[2]; }
  /** Fraction of the motion made before contact (1 after a miss). */
  get t(): number { return this.real[0]; }
  /** Distance travelled before contact. */
  get distance(): number { return this.real[1]; }
  /** Where the cast's centre is at contact (the end after a miss). */
  get x(): number { return this.real[2]; }
  get y(): number { return this.real[3]; }
  /** Unit normal of what was hit, pointing back at the caster ((0, 0) if the cast started inside it). */
  get nx(): number { return this.real[4]; }
  get ny(): number { return this.real[5]; }
}
