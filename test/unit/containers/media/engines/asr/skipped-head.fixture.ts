/**
 * The read French clip `sppas_read_c006_04` (the multilingual speech set, docs/speech-sets.md) as a
 * job planned it: one utterance and the VAD's speech in it, as measured. Whisper's prompted decode
 * began at its fourth second, leaving "Pulls shetland, tailles 36 à 46" out.
 */
export const SKIPPED_HEAD_UTTERANCE = { start: 0.2, end: 10.5 };
export const SKIPPED_HEAD_SPEECH = [
  { start: 0.39, end: 2.78 },
  { start: 3.39, end: 5.37 },
  { start: 5.54, end: 6.94 },
  { start: 7.87, end: 10.27 },
];
