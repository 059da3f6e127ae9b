import { describe, expect, it } from 'vitest';
import { visualWarnings } from '../../../../../src/analytics/visual/index.js';

const pose = { score: 0.9, keypoints: {} };
const face = {} as never;

describe('visualWarnings', () => {
  it('should say nobody was seen when no frame has a pose or a face', () => {
    expect(visualWarnings([{ pose: null, face: null }])).toEqual(['no person was detected in the video']);
  });
  it('should say no face was seen when a body is but a face never is (a 32×32 video, a wide shot)', () => {
    const [w, ...rest] = visualWarnings([
      { pose, face: null },
      { pose: null, face: null },
    ]);
    expect(rest).toEqual([]);
    expect(w).toMatch(
      /^no face was seen in the video .*: eye openness, gaze, mouth, smile and emotion are not measured/,
    );
  });
  it('should say nothing when a face is seen in some frame, or there are no frames', () => {
    expect(
      visualWarnings([
        { pose, face: null },
        { pose, face },
      ]),
    ).toEqual([]);
    expect(visualWarnings([])).toEqual([]);
  });
});
