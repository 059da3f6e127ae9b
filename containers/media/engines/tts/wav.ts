/**
 * @module containers/media/engines/tts/wav
 * Minimal RIFF/WAVE helpers for 16-bit PCM: build a header, and repair the sizes of a WAV
 * written to a pipe (espeak-ng cannot seek back, so its header sizes are placeholders).
 */

/** A 44-byte WAV header for `dataBytes` of 16-bit little-endian PCM. */
export function wavHeader(dataBytes: number, sampleRateHz: number, channels = 1): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRateHz, 24);
  h.writeUInt32LE(sampleRateHz * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** Wraps raw s16le PCM into a WAV file. */
export const pcmToWav = (pcm: Buffer, sampleRateHz: number, channels = 1) =>
  Buffer.concat([wavHeader(pcm.length, sampleRateHz, channels), pcm]);

export interface WavInfo {
  sampleRateHz: number;
  channels: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
}

/** Reads the fmt/data chunks; `dataBytes` is clamped to what the buffer holds. */
export function parseWav(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let off = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | null = null;
  while (off + 8 <= buf.length) {
    const id = buf.toString('ascii', off, off + 4);
    const size = buf.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      fmt = { channels: buf.readUInt16LE(off + 10), sampleRateHz: buf.readUInt32LE(off + 12), bitsPerSample: buf.readUInt16LE(off + 22) };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before fmt chunk');
      const dataOffset = off + 8;
      return { ...fmt, dataOffset, dataBytes: Math.min(size, buf.length - dataOffset) & ~1 };
    }
    off += 8 + size + (size & 1);
  }
  throw new Error('WAV without a data chunk');
}

/** Rewrites a pipe-written WAV with exact sizes. */
export function repairWav(buf: Buffer): Buffer {
  const info = parseWav(buf);
  return pcmToWav(buf.subarray(info.dataOffset, info.dataOffset + info.dataBytes), info.sampleRateHz, info.channels);
}
