import { describe, expect, it } from 'vitest';
import { VIDEO_SECTION_MARKER, VisualSection } from '../../../../../src/contract/result.js';
import {
  analyzeVisual,
  frameDurations,
  framesInEvents,
  summarizeFrames,
  type SpeechEvents,
} from '../../../../../src/analytics/visual/index.js';
import { face, frame, handLandmarks, keypoint, pose } from './fixtures.js';

const NO_EVENTS: SpeechEvents = { fillers: [], pauses: [], positive: [], negative: [] };

/** Frames every 0.5 s: a person with open hands, then hands on hips, a blink, an empty frame... */
function clip() {
  const akimbo = pose({
    left_wrist: keypoint(345, 345),
    right_wrist: keypoint(255, 345),
    left_elbow: keypoint(430, 280),
    right_elbow: keypoint(170, 280),
  });
  const raised = pose({ right_wrist: keypoint(230, 60), right_elbow: keypoint(225, 140) });
  const openHands = [
    { side: 'left' as const, score: 0.9, landmarks: handLandmarks('open', 368, 400, 0.6) },
    { side: 'right' as const, score: 0.9, landmarks: handLandmarks('index', 232, 400, 0.6) },
  ];
  return [
    frame(0, { pose: pose(), hands: openHands, face: face() }),
    frame(0.5, { pose: akimbo, face: face({ emotion: [{ emotion: 'neutral', score: 0.9 }] }) }),
    frame(1.0, { pose: akimbo, face: face({ lid: 0, emotion: [{ emotion: 'neutral', score: 0.9 }] }) }),
    frame(1.5, { pose: raised, face: face({ irisDx: -8 }) }),
    frame(2.0),
    frame(2.5, { pose: pose(), face: face({ iris: false, rotation: null, emotion: [] }) }),
  ];
}

describe('analyzeVisual', () => {
  it('should parse against the contract with one sample per frame in time order', () => {
    const frames = clip();
    const out = analyzeVisual([...frames].reverse(), NO_EVENTS);
    expect(() => VisualSection.parse(out)).not.toThrow();
    expect(out['Video Section']).toBe(VIDEO_SECTION_MARKER);
    expect(out.merged_visual_time_series.map((s) => s.time)).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
  });

  it('should give the exact "nothing seen" sample for a frame with no person', () => {
    const out = analyzeVisual([frame(0, { pose: pose(), face: face() }), frame(0.5)], NO_EVENTS);
    expect(out.merged_visual_time_series[1]).toEqual({
      time: 0.5,
      pose_detected: false,
      raised_hand: false,
      hands_on_hips: false,
      left_hand_level_label: 'not_visible',
      right_hand_level_label: 'not_visible',
      left_hand_height: 0,
      right_hand_height: 0,
      left_hand_depth: 0,
      right_hand_depth: 0,
      gesture_left: 'none',
      gesture_right: 'none',
      eye_openness: 0,
      gaze_direction: null,
      emotion: 'unknown',
      gaze_direction_x: 'center',
      gaze_direction_y: 'center',
      gaze_angle_x: 0,
      gaze_angle_y: 0,
      mouth_width: 0,
      mouth_open: 0,
      smile_ratio: 0,
    });
  });

  it('should derive the per-frame labels of the clip', () => {
    const s = analyzeVisual(clip(), NO_EVENTS).merged_visual_time_series;
    expect(s[0]).toMatchObject({
      gesture_left: 'open_hand',
      gesture_right: 'pinch_or_point',
      eye_openness: 1,
    });
    expect(s[0]).toMatchObject({ gaze_direction: 'center', emotion: 'happy', pose_detected: true });
    expect(s[1]).toMatchObject({ hands_on_hips: true, left_hand_level_label: 'waist', emotion: 'neutral' });
    expect(s[2].eye_openness).toBe(0);
    expect(s[3]).toMatchObject({
      raised_hand: true,
      right_hand_level_label: 'above_head',
      gaze_direction: 'right',
    });
    expect(s[5]).toMatchObject({ gaze_direction: null, emotion: 'unknown', pose_detected: true });
  });

  it('should count gestures per hand-frame and posture time in seconds or frames', () => {
    const frames = clip();
    const out = analyzeVisual(frames, NO_EVENTS);
    expect(out.gesture_summary).toEqual({ open_hand: 1, pinch_or_point: 1, none: 10 });
    // hands on hips in 2 frames × 0.5 s = 1 s; raised hand 0.5 s rounds to 1 (Math.round(0.5)).
    expect(out.posture_summary).toMatchObject({ hands_on_hips: 1, raised_hand: 1, right_hand_high: 1 });
    const byFrames = analyzeVisual(frames, NO_EVENTS, { postureUnit: 'frames' }).posture_summary;
    expect(byFrames).toEqual({
      raised_hand: 1,
      hands_on_hips: 2,
      left_hand_high: 0,
      right_hand_high: 1,
      left_hand_forward: 0,
      right_hand_forward: 0,
    });
  });

  it('should handle an empty clip', () => {
    const out = analyzeVisual([], NO_EVENTS);
    expect(() => VisualSection.parse(out)).not.toThrow();
    expect(out.merged_visual_time_series).toEqual([]);
    expect(out.gesture_summary).toEqual({ open_hand: 0, pinch_or_point: 0, none: 0 });
  });

  it('should survive junk input: NaN keypoints, short meshes, malformed hands', () => {
    const junk = frame(0, {
      pose: {
        score: 0.9,
        keypoints: { left_shoulder: { x: NaN, y: 1, score: 1 }, right_shoulder: keypoint(1, 1) },
      },
      hands: [{ side: 'left', score: 1, landmarks: [[NaN, 0]] }],
      face: {
        score: 1,
        box: [0, 0, 0, 0],
        mesh: [[1, 1]],
        rotation: { roll: NaN, yaw: NaN, pitch: NaN },
        emotion: [],
      },
    });
    const out = analyzeVisual([junk, frame(0.5)], NO_EVENTS);
    expect(() => VisualSection.parse(out)).not.toThrow();
  });
});

describe('word sync', () => {
  it('should summarise the two frames a filler span covers', () => {
    const out = analyzeVisual(clip(), { ...NO_EVENTS, fillers: [{ start: 0.4, end: 1.1 }] });
    expect(out.gesture_summary_word_sync.filler_summary).toEqual({
      hands_on_hips: 1,
      left_hand_level_label: 'waist',
      right_hand_level_label: 'waist',
      gesture_left: 'none',
      gesture_right: 'none',
      emotion: 'neutral',
      frame_times: [0.5, 1],
    });
    expect(out.gesture_summary_word_sync.pause_summary).toEqual({});
  });

  it('should give {} for every summary without events', () => {
    const out = analyzeVisual(clip(), NO_EVENTS);
    expect(out.gesture_summary_word_sync).toEqual({
      filler_summary: {},
      pause_summary: {},
      sentiment_positive_summary: {},
      sentiment_negative_summary: {},
    });
  });

  it('should take the nearest frame within half an interval for a span between frames', () => {
    const times = [0, 0.5, 1, 1.5];
    expect(framesInEvents(times, [{ start: 1.32, end: 1.4 }])).toEqual([3]); // 0.1 s from 1.5
    expect(framesInEvents(times, [{ start: 1.2, end: 1.3 }])).toEqual([2]); // tie: the earlier frame
    expect(framesInEvents(times, [{ start: 1.7, end: 1.8 }])).toEqual([3]); // after the last frame, 0.2 s
    expect(framesInEvents(times, [{ start: 1.8, end: 1.9 }])).toEqual([]); // 0.3 s > half of 0.5 s
    expect(
      framesInEvents(times, [
        { start: 0.5, end: 0.5 },
        { start: 0, end: 0.6 },
      ]),
    ).toEqual([0, 1]);
    expect(framesInEvents([], [{ start: 0, end: 1 }])).toEqual([]);
  });

  it('should give the fraction of frames with hands on hips', () => {
    const out = analyzeVisual(clip(), { ...NO_EVENTS, negative: [{ start: 0, end: 0.5 }] });
    const neg = out.gesture_summary_word_sync.sentiment_negative_summary;
    expect(neg).toMatchObject({ hands_on_hips: 0.5, frame_times: [0, 0.5], emotion: 'happy' });
    expect(summarizeFrames([])).toEqual({});
  });
});

describe('frameDurations', () => {
  it('should cap gaps at two intervals and give the last frame one interval', () => {
    expect(frameDurations([0, 0.5, 1, 3])).toEqual([0.5, 0.5, 1, 0.5]);
    expect(frameDurations([2])).toEqual([0]);
  });
});
