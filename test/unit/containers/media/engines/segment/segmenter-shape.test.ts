/**
 * The selfie segmenter's shape for a video (segment/segmenter.ts `shapeForVideo`): the model whose
 * input aspect squashes the picture least, with 4:3 as the boundary.
 */
import { describe, expect, it } from 'vitest';
import { shapeForVideo } from '../../../../../../containers/media/engines/segment/segmenter.js';

describe('shapeForVideo', () => {
  it('should take the landscape model for video wider than 4:3', () => {
    expect(shapeForVideo(1280, 720)).toBe('landscape');
    expect(shapeForVideo(1920, 1080)).toBe('landscape');
    expect(shapeForVideo(2560, 1080)).toBe('landscape'); // 21:9
    expect(shapeForVideo(641, 480)).toBe('landscape');
  });

  it('should keep the square model for 4:3, square and portrait video', () => {
    expect(shapeForVideo(640, 480)).toBe('square');
    expect(shapeForVideo(844, 844)).toBe('square');
    expect(shapeForVideo(720, 1280)).toBe('square');
  });
});
