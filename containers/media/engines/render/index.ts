/**
 * @module containers/media/engines/render
 * Video processing: normalize, speech replacement, blur, eye contact, lip sync, captions.
 */
export { createRenderRoutes, renderRoutes, type RenderRoutesOptions } from './routes.js';
export {
  renderVideo,
  type RenderEngines,
  type RenderInput,
  type RenderReport,
  type RenderResult,
} from './render.js';
export { parseRenderOptions, type RenderOptions } from './options.js';
export { planRender, type RenderPlan } from '../frame-pipeline/plan.js';
export { RenderError } from './errors.js';
export { defaultRenderEngines } from './engines.js';
