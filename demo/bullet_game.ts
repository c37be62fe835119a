// The bullet-hell game's step, shared by the page (demo/main.ts) and the worker that can run it
// instead (demo/bullet_worker.ts), so both run the same code and give the same answers.
import { BULLET, BulletHell, ENEMY, PLAYER } from "../fixtures/scenes.js";
import type { World } from "../bindings/world.js";

/** What builds a game: the scene and the ship's hitbox (top-left x, y). */
export interface GameSetup {
  bullets: number;
  enemies: number;
  width: number;
  height: number;
  ship: { x: number; y: number; w: number; h: number };
}

/** One step's input: seconds to advance, where the player put the ship, and whether to report the grid. */
export interface GameInput {
  dt: number;
  shipX: number;
  shipY: number;
  gridStats: boolean;
}

/** Slots of a step's results. */
export const Result = { Hits: 0, ShipTouches: 1, CollisionMs: 2, GridCols: 3, GridRows: 4, CellSize: 5 } as const;

export class BulletGame {
  readonly hell: BulletHell;
  readonly shipId: number;

  constructor(readonly world: World, setup: GameSetup) {
    this.hell = new BulletHell(world, setup);
    const s = setup.ship;
    this.shipId = world.addRect(s.x, s.y, s.w, s.h, PLAYER);
  }

  /**
   * One frame: bullets and enemies move, one firstHits finds which bullets hit an enemy (timed),
   * the bullets that hit respawn, and the ship asks whether any bullet touches it. Writes the
   * counts into `results` (slots in Result).
   */
  step(input: GameInput, results: Float64Array): void {
    const { world, hell } = this;
    hell.step(input.dt);
    world.setPosition(this.shipId, input.shipX, input.shipY);
    const t0 = performance.now();
    results[Result.Hits] = world.firstHits(BULLET, ENEMY);
    results[Result.CollisionMs] = performance.now() - t0;
    if (input.gridStats) {
      const stats = world.stats(); // the grid firstHits just built over the enemies
      results[Result.GridCols] = stats.cols;
      results[Result.GridRows] = stats.rows;
      results[Result.CellSize] = stats.cellSize;
    }
    hell.recycleHits();
    // The ship is not in firstHits' masks: it asks separately whether any bullet touches it.
    results[Result.ShipTouches] = world.touching(this.shipId, BULLET);
  }
}
