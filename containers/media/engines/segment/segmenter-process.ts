/**
 * @module containers/media/engines/segment/segmenter-process
 * The embedded segmenter as a child process (started by process-segmenter.ts through
 * spawnMedia, so the job's nice, DELETE, deadline and idle limit reach it, and the service's main
 * thread stays free). Narrow contract: `argv[2]` names the model; stdin carries RGB images of the
 * model's input size; stdout gets, in order, one person-probability map per image, one byte per
 * pixel (0..255).
 */
import { readRecords, writeWithBackpressure } from '../frame-pipeline/frames.js';
import { createTfjsSegmenter, MODEL_SIZE, type SegmentationModel } from './segmenter.js';

const model = process.argv[2] as SegmentationModel;
if (!(model in MODEL_SIZE)) {
  process.stderr.write(`segmenter-process: unknown model ${process.argv[2]}\n`);
  process.exit(2);
}
using segmenter = await createTfjsSegmenter({ model });
for await (const rgb of readRecords(process.stdin, segmenter.inputWidth * segmenter.inputHeight * 3)) {
  const p = await segmenter.segment(rgb);
  const bytes = Buffer.allocUnsafe(p.length);
  for (let i = 0; i < p.length; i++) bytes[i] = Math.round(Math.min(1, Math.max(0, p[i])) * 255);
  await writeWithBackpressure(process.stdout, bytes);
}
