export { decodeBody } from './charset-decoder';
export { isSupportedContentType, mimeTypeOf } from './content-type';
export { type JsSignals, jsSignals, needsJavaScript } from './js-detector';
export { createRenderer } from './renderer';
export { createRendererFromEnv, type RenderSettings } from './renderer-from-env';
export { assertAllowedUrl, createSafeDispatcher, isForbiddenAddress } from './ssrf-guard';
export type {
  EngineName,
  Renderer,
  RendererLogger,
  RendererOptions,
  RenderRequest,
  RenderResult,
} from './types';
