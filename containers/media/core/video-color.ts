/**
 * @module containers/media/core/video-color
 * A video stream's colour description as ffprobe reports it, kept in the names ffmpeg's
 * `setparams` filter takes back, so the frames path can tag its raw pictures with it.
 */
import type { VideoColor } from '../../../src/contract/media.js';

/**
 * The names ffprobe reports that ffmpeg's `setparams` filter takes back (ffmpeg 5.1 and 9 alike,
 * each checked), with the two transfers `setparams` spells otherwise. Anything else (unknown,
 * reserved, a name a newer ffmpeg added) reads as "not said": the value goes into a filter graph,
 * and one it refused would fail every render of the file.
 */
const SETPARAMS_NAMES = {
  range: ['tv', 'pc'],
  space: ['bt709', 'fcc', 'bt470bg', 'smpte170m', 'smpte240m', 'ycgco', 'bt2020nc', 'bt2020c', 'smpte2085'],
  transfer: [
    'bt709',
    'smpte170m',
    'smpte240m',
    'linear',
    'iec61966-2-4',
    'bt1361e',
    'iec61966-2-1',
    'bt2020-10',
    'bt2020-12',
    'smpte2084',
    'smpte428',
    'arib-std-b67',
  ],
  primaries: [
    'bt709',
    'bt470m',
    'bt470bg',
    'smpte170m',
    'smpte240m',
    'film',
    'bt2020',
    'smpte428',
    'smpte431',
    'smpte432',
  ],
} as const;
const TRANSFER_ALIASES = new Map([
  ['gamma22', 'bt470m'],
  ['gamma28', 'bt470bg'],
]);

/** Pure: a stream's colour description in `setparams` names, each field null unless known. */
export function videoColor(s: {
  color_range?: string;
  color_space?: string;
  color_transfer?: string;
  color_primaries?: string;
}): VideoColor {
  const known = (names: readonly string[], value: string | undefined) =>
    value !== undefined && names.includes(value) ? value : null;
  return {
    range: known(SETPARAMS_NAMES.range, s.color_range),
    space: known(SETPARAMS_NAMES.space, s.color_space),
    transfer:
      TRANSFER_ALIASES.get(s.color_transfer ?? '') ?? known(SETPARAMS_NAMES.transfer, s.color_transfer),
    primaries: known(SETPARAMS_NAMES.primaries, s.color_primaries),
  };
}
