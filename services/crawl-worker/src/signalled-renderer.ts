import type { Renderer } from '@wcs/renderer';

/**
 * The process's renderer seen by one job: every render also stops when the job's signal fires
 * (deadline or cancel), for processors that do not take the job's signal themselves (map). The
 * shared renderer is not closed through this view.
 */
export function signalledRenderer(renderer: Renderer, signal: AbortSignal): Renderer {
  return {
    features: renderer.features,
    render: (req) =>
      renderer.render({ ...req, signal: req.signal ? AbortSignal.any([req.signal, signal]) : signal }),
    checkTarget: (url) => renderer.checkTarget(url),
    close: async () => undefined,
  };
}
