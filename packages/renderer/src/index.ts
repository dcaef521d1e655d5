export { isSupportedContentType } from './content-type';
export { conditionalHeaders } from './fetch-engine';
export { type JsSignals, jsSignals, needsJavaScript } from './js-detector';
export { createRenderer } from './renderer';
export { createRendererFromEnv, type RenderSettings } from './renderer-from-env';
export type {
  ChallengeAnswer,
  DeferredTextCheck,
  EngineName,
  Renderer,
  RendererLogger,
  RendererOptions,
  RenderRequest,
  RenderResult,
  Validators,
} from './types';
