// `npm run bench`: every part's workloads on both backends in one run, as ratios.
// Each suite times the same work on the wasm core and the TS baseline after checking they agree,
// and returns a markdown section; all sections go to bench/results/bench.md with the machine and
// the command. BENCH_ONLY=grid,... runs a subset (the file then holds only those sections).
import { mkdirSync, writeFileSync } from "node:fs";
import { benchGrid, benchPositions } from "./grid.js";
import { benchPlatforms } from "./platforms.js";
import { machine } from "./harness.js";
import { Progress } from "./progress.js";
import { benchRects } from "./rect_level.js";
import { benchTiles } from "./tiles.js";
import { benchCasts } from "./casts.js";
import { benchCrowded } from "./crowded.js";
import { benchWorld } from "./world.js";
import { benchDebugDraw } from "./debug_draw.js";

const suites: Record<string, () => Promise<string[]>> = {
  grid: benchGrid,
  positions: benchPositions,
  rects: benchRects,
  platforms: benchPlatforms,
  tiles: benchTiles,
  casts: benchCasts,
  world: benchWorld,
  crowded: benchCrowded,
  debug: benchDebugDraw,
};

const only = process.env.BENCH_ONLY?.split(",").filter(Boolean);
for (const name of only ?? []) if (!(name in suites)) throw new Error(`BENCH_ONLY: no suite "${name}"; suites are ${Object.keys(suites).join(", ")}`);
const sections: string[] = [];
const chosen = Object.entries(suites).filter(([name]) => !only || only.includes(name));
const progress = new Progress("bench", chosen.length);
for (const [name, run] of chosen) {
  progress.step(`suite ${name}`);
  console.log(`\n# ${name}`);
  sections.push(...await run());
}
const header = [
  "# hitcore benchmark",
  "",
  `Machine: ${machine()}`,
  "",
  `Command: \`${only ? `BENCH_ONLY=${only.join(",")} ` : ""}npm run bench\` (tinybench; medians and p99 in ms)`,
  "",
];
progress.done();
mkdirSync(new URL("../../bench/results/", import.meta.url), { recursive: true });
writeFileSync(new URL("../../bench/results/bench.md", import.meta.url), [...header, ...sections].join("\n"));
console.log(`\n${machine()}\nwritten to bench/results/bench.md`);
