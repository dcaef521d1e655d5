import type { Renderer } from '@wcs/renderer';
import type { ContentPool } from './content-pool';

/**
 * What a process running several workers hands each of them to share (the one-process mode): one
 * content pool and one renderer (one Chromium pool) instead of one per worker. A worker that is
 * given one uses it and leaves closing it to the process; otherwise it makes and closes its own.
 */
export interface SharedWorkerResources {
  contentPool?: ContentPool;
  renderer?: Renderer;
}
