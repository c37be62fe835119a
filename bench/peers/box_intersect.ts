// box-intersect, as its README shows: boxes as [minX, minY, maxX, maxY] arrays updated in place,
// then boxIntersect(boxes, cb) (complete) or boxIntersect(red, blue, cb) (bipartite) every frame.
// Its callback must return undefined: any other value stops the search early.
import "./node_global.js"; // first: box-intersect needs `global` in the page
import boxIntersect from "box-intersect";
import { PairSink } from "./pairs.js";
import type { Peer, PeerRun } from "./peer.js";
import type { BoxScene } from "../../fixtures/box_scenes.js";

export const boxIntersectPeer: Peer = {
  name: "box-intersect",
  hitcore: false,
  lag: 0,
  how: "box-intersect: [minX, minY, maxX, maxY] arrays updated in place, boxIntersect(boxes, cb) (complete) or " +
    "boxIntersect(bullets, enemies, cb) (bipartite) every frame",
  async create(scene: BoxScene): Promise<PeerRun> {
    const sink = new PairSink();
    const { x, y, w, h, n, nA } = scene;
    const complete = n === nA;
    const boxes: number[][] = [];
    for (let k = 0; k < n; k++) boxes.push([0, 0, 0, 0]);
    const red = complete ? boxes : boxes.slice(0, nA);
    const blue = boxes.slice(nA);
    const selfPair = (i: number, j: number): undefined => { sink.push(i, j); return undefined; };
    const crossPair = (r: number, b: number): undefined => { sink.push(r, nA + b); return undefined; };
    return {
      frame() {
        sink.count = 0;
        for (let k = 0; k < n; k++) {
          const b = boxes[k];
          b[0] = x[k]; b[1] = y[k]; b[2] = x[k] + w[k]; b[3] = y[k] + h[k];
        }
        if (complete) boxIntersect(red, selfPair);
        else boxIntersect(red, blue, crossPair);
        return sink.count;
      },
      pairs: () => sink,
      dispose() {},
    };
  },
};
