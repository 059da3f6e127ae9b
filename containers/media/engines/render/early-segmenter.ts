/**
 * @module containers/media/engines/render/early-segmenter
 * The blur's segmenter process, started as soon as the render's options say blur: they come
 * before the source in the request, so the process's start-up (≈ 0.2–0.3 s: Python, MediaPipe,
 * the model) overlaps the source's upload instead of delaying the first mask, which the encoder
 * waits for. Started in the request's work scope, like every process of the render (DELETE and
 * the deadline reach it); disposed here unless the render took it.
 */
import { currentScope, runInScope } from '../../core/work-scope.js';
import type { Segmenter } from '../segment/index.js';
import { parseRenderOptions } from './options.js';
import type { RenderEngines } from './types.js';

export function earlySegmenter(engines: RenderEngines) {
  const scope = currentScope();
  let started: Promise<Segmenter> | undefined;
  let taken = false;
  return {
    /** Give it the request's text fields as they arrive. */
    onField(name: string, value: string): void {
      if (name !== 'options' || started || !engines.segmenter) return;
      let blur = false;
      try {
        blur = parseRenderOptions(value).blur_background;
      } catch {
        return; // the render refuses the options itself
      }
      if (!blur) return;
      const start = engines.segmenter;
      started = scope ? runInScope(scope, start) : start();
      started.catch(() => {}); // the render reports it when it asks
    },
    /** The engines for the render: the started segmenter, when there is one. */
    engines(): RenderEngines {
      const early = started;
      if (!early) return engines;
      return {
        ...engines,
        segmenter: () => {
          taken = true;
          return early;
        },
      };
    },
    /** After the render: a segmenter it never took is ended. */
    dispose(): void {
      if (started && !taken)
        void started.then(
          (s) => s.dispose(),
          () => {},
        );
    },
  };
}
