/**
 * @module pipeline/step-log
 * One line per finished step, from the sequential runner and from concurrent groups alike: where a
 * job's time goes (`in` names the concurrent group it ran in).
 */
export function logStepTime(videoId: string, step: string, startedAt: number, group?: string): void {
  console.log(
    JSON.stringify({
      level: 'info',
      video_id: videoId,
      step,
      ...(group ? { in: group } : {}),
      ms: Date.now() - startedAt,
    }),
  );
}
