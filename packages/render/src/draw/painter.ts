import type { Surface } from './display-list.ts';

/** Draws one scene's content (not the shared background) over the frames it is on screen. */
export interface Painter {
  /**
   * `t` is milliseconds from the scene's start: negative while the transition into it runs,
   * past its duration while the transition out runs. `alpha` is the transition's opacity.
   */
  draw(surface: Surface, t: number, alpha: number): void | Promise<void>;
  dispose(): void;
}
