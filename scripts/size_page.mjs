// The script of a page that uses every part of a world, as a game would write it; scripts/size.mjs
// bundles it (so the facade is counted as tree-shaken by a bundler: what this page calls, not every
// export of the entry) for the "page" rows. It is bundled, never run.
import { createWorld, Input, Response, TileCell } from "../dist/bindings/browser.js";

const world = await createWorld({ capacity: 60000 });
const map = world.addTileMap({ cols: 64, rows: 40, tileSize: 16 });
map.setCell(3, 39, TileCell.Platform);
const hero = map.addController(32, 32);
const level = world.addRectLevel();
level.addInstance(level.addPrefab([0, 0, 64, 16]), 200, 300);
const player = level.addCharacter(100, 200, 20, 40);
const plat = world.addPlatforms({ maxRadius: 8 });
plat.addSurfaces([0, 500, 300, 560]);
plat.addPolygon([400, 400, 480, 400, 440, 460]);
plat.addBall(40, 40);
world.loadLevel(await (await fetch("level.tmj")).json());
for (let k = 0; k < 20000; k++) world.addCircle(k % 800, 10, 2, 1);
world.addCircle(400, 300, 12, 2);

function frame() {
  level.charInput[level.indexOf(player)] = Input.Right;
  map.setInput(hero, Input.Jump);
  level.stepCharacters();
  map.stepControllers(1 / 60);
  plat.step(1 / 60);
  world.moveBodies(1, Response.Bounce, 1);
  const hits = world.firstHits(1, 2);
  world.castRay(0, 0, 1, 0, 500);
  world.overlapLevel(1);
  world.controllerContacts(2);
  globalThis.hits = hits + world.pairs[0];
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
