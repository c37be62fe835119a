// check2d (formerly detect-collisions), as its README and PEERS.md advise: one Box body per box
// with the documented `padding` (2: fewer BVH reinserts for small moving boxes), setPosition on
// every body each frame, then checkAll (complete; each pair is reported twice, kept once) or, for
// bipartite, collision groups (bullets never test bullets) and checkOne per enemy.
import { System, type Body } from "check2d";
import { PairSink } from "./pairs.js";
import type { Peer, PeerRun } from "./peer.js";
import type { BoxScene } from "../../fixtures/box_scenes.js";

const PADDING = 2;
// check2d groups: category bits in the high 16, the mask of categories it collides with in the low 16.
const BULLETS = (1 << 16) | 2;
const ENEMIES = (2 << 16) | 1;

interface Tag { i: number }

export const check2dPeer: Peer = {
  name: "check2d",
  hitcore: false,
  lag: 0,
  how: "check2d: one Box body per box (padding 2), setPosition on every body each frame, then checkAll " +
    "(each pair reported twice, kept once); bipartite uses collision groups and checkOne per enemy",
  async create(scene: BoxScene): Promise<PeerRun> {
    const sink = new PairSink();
    const { x, y, w, h, n, nA } = scene;
    const complete = n === nA;
    const system = new System();
    const bodies: Body[] = [];
    for (let k = 0; k < n; k++) {
      const group = complete ? undefined : k < nA ? BULLETS : ENEMIES;
      bodies.push(system.createBox({ x: x[k], y: y[k] }, w[k], h[k], { padding: PADDING, group, userData: { i: k } as Tag }));
    }
    const tagOf = (b: Body) => (b.userData as Tag).i;
    // Callbacks return nothing: a truthy return stops check2d's loop early.
    const onSelf = (r: { a: Body; b: Body }) => { const i = tagOf(r.a), j = tagOf(r.b); if (i < j) sink.push(i, j); };
    const onCross = (r: { a: Body; b: Body }) => { sink.push(tagOf(r.b), tagOf(r.a)); };
    return {
      frame() {
        sink.count = 0;
        for (let k = 0; k < n; k++) bodies[k].setPosition(x[k], y[k]);
        if (complete) system.checkAll(onSelf);
        else for (let k = nA; k < n; k++) system.checkOne(bodies[k], onCross);
        return sink.count;
      },
      pairs: () => sink,
      dispose() {},
    };
  },
};
