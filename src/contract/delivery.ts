/**
 * @module contract/delivery
 * Documented extension `delivery` of the analysis result: the numbers speaking coaches look at
 * (pitch, loudness, repetitions, pace over time, eye contact, hand gestures). Definitions:
 * docs/delivery.md.
 */
import { z } from 'zod';

const Span = { start: z.number(), end: z.number() };

export const DeliveryPitch = z.object({
  voiced_sec: z.number(),
  median_hz: z.number().nullable(),
  range_st: z.number().nullable(),
  variation_st: z.number().nullable(),
  monotone: z.boolean().nullable(),
  monotone_below_st: z.number(),
});
export type DeliveryPitch = z.infer<typeof DeliveryPitch>;

export const QuietStretch = z.object({ ...Span, level_db: z.number() });

export const DeliveryLoudness = z.object({
  measure: z.string(),
  level_dbfs: z.number().nullable(),
  variation_db: z.number().nullable(),
  range_db: z.number().nullable(),
  quiet_below_db: z.number(),
  quiet_stretches: z.array(QuietStretch),
});
export type DeliveryLoudness = z.infer<typeof DeliveryLoudness>;

export const Repetition = z.object({ ...Span, text: z.string(), count: z.number().int() });

export const PaceWindow = z.object({ ...Span, wpm: z.number() });
export const PaceStretch = z.object({ ...Span, wpm: z.number(), kind: z.enum(['slow', 'fast']) });

export const DeliveryPace = z.object({
  window_sec: z.number(),
  step_sec: z.number(),
  band_wpm: z.tuple([z.number(), z.number()]),
  windows: z.array(PaceWindow),
  outside_band: z.array(PaceStretch),
});
export type DeliveryPace = z.infer<typeof DeliveryPace>;

export const DeliveryEyeContact = z.object({
  share: z.number().nullable(),
  samples_with_face: z.number().int(),
  longest_look_away: z.object({ ...Span, duration: z.number() }).nullable(),
});
export type DeliveryEyeContact = z.infer<typeof DeliveryEyeContact>;

export const DeliveryGestures = z.object({
  hand_visible_share: z.number().nullable(),
  gesture_share: z.number().nullable(),
});
export type DeliveryGestures = z.infer<typeof DeliveryGestures>;

export const Delivery = z.object({
  pitch: DeliveryPitch,
  loudness: DeliveryLoudness,
  repetitions: z.object({ count: z.number().int(), instances: z.array(Repetition) }),
  pace: DeliveryPace,
  eye_contact: DeliveryEyeContact.optional(),
  gestures: DeliveryGestures.optional(),
});
export type Delivery = z.infer<typeof Delivery>;
