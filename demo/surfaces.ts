import { runPlatformer } from "./platformer.js";

// Seed 000's level (egLevel) as surfaces.
runPlatformer("surfaces");
