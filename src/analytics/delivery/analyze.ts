/**
 * @module analytics/delivery/analyze
 * Assembles the `delivery` extension of the analysis result (docs/delivery.md).
 */
import type { Delivery } from '../../contract/delivery';
import type { ProsodyTrack, TimedWord, TimeSegment } from '../../contract/media';
import type { VisualSample } from '../../contract/result';
import { buildTokens } from '../speech/tokens';
import { loudnessDelivery } from './loudness';
import { paceDelivery } from './pace';
import { pitchDelivery } from './pitch';
import { eyeContact, gestureShares } from './presence';
import { detectRepetitions } from './repetitions';
import { isWrittenWithoutSpaces } from '../speech/languages';
import { paceBandFor } from '../speech/style';

export interface DeliveryInput {
  /** Recognised words (as for the speech section). */
  words: readonly TimedWord[];
  /** Voice-activity speech segments; pitch and loudness are measured inside them (all voiced frames when empty). */
  speech_segments?: readonly TimeSegment[];
  /** Pitch/energy track of the audio; without it pitch and loudness are empty. */
  prosody?: ProsodyTrack;
  /** The visual time series, when visual analytics ran. */
  visual?: readonly VisualSample[];
  /** The words' language (ISO 639-1); its hesitations are not repetitions. Default English. */
  language?: string | null;
}

const EMPTY_TRACK: ProsodyTrack = { frame_sec: 0.01, pitch_hz: [], energy_db: [] };

/**
 * The `delivery` object; it passes `Delivery.parse()`. Pure and deterministic.
 *
 * @example
 * const delivery = analyzeDelivery({ words, speech_segments, prosody, visual: samples });
 * delivery.pitch.monotone; // false
 */
export function analyzeDelivery(input: DeliveryInput): Delivery {
  const tokens = buildTokens(input.words ?? [], input.language);
  const track = input.prosody ?? EMPTY_TRACK;
  const spans = input.speech_segments ?? [];
  // Chinese, Japanese…: the words are the recogniser's pieces. A repeated piece is often one word
  // ("常常", "まあまあ") and a rate of pieces fits no words-per-minute band (languageWarnings).
  const pieces = isWrittenWithoutSpaces(input.language);
  const repetitions = (pieces ? [] : detectRepetitions(tokens)).map((r) => ({
    text: r.text,
    count: r.count,
    start: Math.round(r.start * 1000) / 1000,
    end: Math.round(r.end * 1000) / 1000,
  }));
  const delivery: Delivery = {
    pitch: pitchDelivery(track, spans),
    loudness: loudnessDelivery(track, spans),
    repetitions: { count: repetitions.length, instances: repetitions },
    pace: pieces
      ? { ...paceDelivery(tokens), outside_band: [] }
      : paceDelivery(tokens, undefined, undefined, paceBandFor(input.language)),
  };
  if (input.visual) {
    delivery.eye_contact = eyeContact(input.visual);
    delivery.gestures = gestureShares(input.visual);
  }
  return delivery;
}
