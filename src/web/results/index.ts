/**
 * @module web/results
 * The results view, in small modules: the transcript alignment, the summary cards, the
 * timeline, the transcript and body-language sections, and the processing report's lines.
 * Pure (data → HTML or text); the page's script bundles them (`npm run build:web`), the tests
 * import them from here.
 */
export { processingReportItems, type ShownProcessingReport } from './processing-report.js';
export { renderResults, type ResultsViewOptions } from './view.js';
