/**
 * @module pipeline/steps/events
 * The speech events the visual word-sync needs, taken from the speech section.
 */
import type { SpeechEvents } from '../../analytics/visual/index.js';
import type { SpeechSection } from '../../contract/result.js';

/** Sentiment words carry only a start time; give them this span when no word end is known. */
export const SENTIMENT_SPAN_SEC = 0.4;

export function speechEvents(speech: SpeechSection): SpeechEvents {
  const wordEnds = new Map<number, number>();
  for (const entries of Object.values(speech.pos)) {
    for (const e of entries) for (const t of e.timestamps) wordEnds.set(t.start, t.end);
  }
  const spanOf = (time: number) => ({ start: time, end: wordEnds.get(time) ?? time + SENTIMENT_SPAN_SEC });
  return {
    fillers: speech.filler_words.instances.map((f) => ({ start: f.start, end: f.end })),
    pauses: speech.pauses.time_series.map((p) => ({ start: p.start, end: p.end })),
    positive: speech.sentiment_words.filter((w) => w.compound > 0).map((w) => spanOf(w.time)),
    negative: speech.sentiment_words.filter((w) => w.compound < 0).map((w) => spanOf(w.time)),
  };
}
