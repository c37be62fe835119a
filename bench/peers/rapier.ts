// rapier2d (SIMD build, -compat package with the wasm inlined), colliders only, as PEERS.md found
// works: a kinematic position-based body per box carrying a sensor cuboid with
// ActiveCollisionTypes.ALL; each frame setNextKinematicTranslation on every body, world.step(),
// then narrowPhase.intersectionPairsWith per collider. Its pairs are those of the positions before
// the step (one frame behind), which the agreement check accounts for. Bipartite: collision groups
// (bullets never pair with bullets) and the enemies' intersection lists.
import RAPIER from "@dimforge/rapier2d-simd-compat";
import { PairSink } from "./pairs.js";
import type { Peer, PeerRun } from "./peer.js";
import type { BoxScene } from "../../fixtures/box_scenes.js";

// Interaction groups: membership in the high 16 bits, filter in the low 16.
const BULLETS = (1 << 16) | 2;
const ENEMIES = (2 << 16) | 1;

let ready: Promise<void> | null = null;

/**
 * RAPIER.init(), without the warning it prints on every load: the -compat package hands its inlined
 * wasm to wasm-bindgen's loader the old way ("using deprecated parameters for the initialization
 * function"), which is rapier's own call, not one this adapter can change.
 */
async function initRapier(): Promise<void> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith("using deprecated parameters for the initialization function")) warn(...args);
  };
  try {
    await RAPIER.init();
  } finally {
    console.warn = warn;
  }
}

export const rapierPeer: Peer = {
  name: "rapier2d-simd",
  hitcore: false,
  lag: 1,
  how: "@dimforge/rapier2d-simd-compat: kinematic position-based bodies with sensor cuboids " +
    "(ActiveCollisionTypes.ALL), setNextKinematicTranslation on every body, world.step(), then " +
    "narrowPhase.intersectionPairsWith per collider (pairs lag one frame); bipartite uses collision groups and the enemies' lists",
  async create(scene: BoxScene): Promise<PeerRun> {
    ready ??= initRapier();
    await ready;
    const sink = new PairSink();
    const { x, y, w, h, n, nA } = scene;
    const complete = n === nA;
    const world = new RAPIER.World({ x: 0, y: 0 });
    const bodies: InstanceType<typeof RAPIER.RigidBody>[] = [];
    const handles = new Float64Array(n);
    const boxOf = new Map<number, number>();
    for (let k = 0; k < n; k++) {
      const body = world.createRigidBody(RAPIER.RigidBodyDesc.kinematicPositionBased().setTranslation(x[k] + w[k] / 2, y[k] + h[k] / 2));
      let desc = RAPIER.ColliderDesc.cuboid(w[k] / 2, h[k] / 2).setSensor(true).setActiveCollisionTypes(RAPIER.ActiveCollisionTypes.ALL);
      if (!complete) desc = desc.setCollisionGroups(k < nA ? BULLETS : ENEMIES);
      const collider = world.createCollider(desc, body);
      bodies.push(body);
      handles[k] = collider.handle;
      boxOf.set(collider.handle, k);
    }
    world.step(); // the first step registers the colliders with the broad phase
    const at = { x: 0, y: 0 }; // one vector reused for every translation
    let current = 0;
    const onSelf = (other: number) => { const j = boxOf.get(other)!; if (j > current) sink.push(current, j); };
    const onCross = (other: number) => { sink.push(boxOf.get(other)!, current); };
    return {
      frame() {
        sink.count = 0;
        for (let k = 0; k < n; k++) {
          at.x = x[k] + w[k] / 2;
          at.y = y[k] + h[k] / 2;
          bodies[k].setNextKinematicTranslation(at);
        }
        world.step();
        const narrow = world.narrowPhase;
        const from = complete ? 0 : nA, visit = complete ? onSelf : onCross;
        for (let k = from; k < n; k++) {
          current = k;
          narrow.intersectionPairsWith(handles[k], visit);
        }
        return sink.count;
      },
      pairs: () => sink,
      dispose() { world.free(); },
    };
  },
};
