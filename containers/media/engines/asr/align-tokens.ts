/**
 * @module containers/media/engines/asr/align-tokens
 * The aligner's view of text: lowercase dictionary tokens. Shared by the aligner, the chunk
 * planner and the caption code (which maps tokens back to the text's own words).
 */

/**
 * Pure: normalises text to dictionary tokens: lowercase words, apostrophes kept, punctuation
 * dropped, hyphens split.
 * @example alignTokens("It's well-known, 42!") // ["it's", 'well', 'known', '42']
 */
export function alignTokens(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '') // "Anaïs" → "anais", not "ana s"
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^a-z0-9'\s-]+/g, ' ')
    .replace(/-/g, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}
