// The bullet-hell game in a module worker: the page's "run in worker" toggle starts this script
// with a WorldWorker, and each frame sends the ship's position and reads back the views it draws.
import { serveWorld } from "../bindings/worker.js";
import { BulletGame, type GameInput, type GameSetup } from "./bullet_game.js";

let game: BulletGame | null = null;

serveWorld<GameSetup, GameInput>({
  setup(world, setup) {
    game = new BulletGame(world, setup);
  },
  step(_world, input, results) {
    game!.step(input, results);
  },
});
