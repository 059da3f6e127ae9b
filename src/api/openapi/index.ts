/**
 * @module api/openapi
 * The OpenAPI 3.1 document and its HTML rendering.
 */
export { openApiDocument, type OpenApiOptions } from './document.js';
export { renderDocs } from './render.js';
export { ERROR_CODE_DOCS } from './errors.js';
