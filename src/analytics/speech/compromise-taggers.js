// The compromise taggers of German, French and Spanish, re-exported from plain JavaScript so the
// type checker reads compromise-taggers.d.ts instead of the packages' own types, which are
// TypeScript sources that do not pass this project's strict checks.
export { default as de } from 'de-compromise';
export { default as es } from 'es-compromise';
export { default as fr } from 'fr-compromise';
