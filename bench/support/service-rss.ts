/**
 * @module bench/support/service-rss
 * Resident memory of a running `npm start` service, sampled from /proc: workerd, the media
 * container service and its children (ffmpeg, vision workers, the Whisper worker), only processes
 * started from `root` (the machine may run other checkouts' services).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export type ServicePart = 'workerd' | 'media';

const PART_OF: Array<[RegExp, ServicePart]> = [
  [/workerd/, 'workerd'],
  [/containers\/media|engines\/vision\/worker|ffmpeg|pocketsphinx|asr_worker/, 'media'],
];

/** RSS in MiB per part of the service, now. */
export function serviceRssMiB(root: string): Record<ServicePart, number> {
  const kb: Record<ServicePart, number> = { workerd: 0, media: 0 };
  const prefix = root.replace(/\/$/, '');
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const part = PART_OF.find(([re]) => re.test(cmd))?.[1];
      if (!part || !readlinkSync(`/proc/${pid}/cwd`).startsWith(prefix)) continue;
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kb[part] += Number(m[1]);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return { workerd: kb.workerd / 1024, media: kb.media / 1024 };
}

/** Samples every `everyMs` until `stop()`; returns the peak of each part and of their sum. */
export function rssPeaks(root: string, everyMs = 250) {
  const peak = { workerd: 0, media: 0, total: 0 };
  const sample = () => {
    const now = serviceRssMiB(root);
    peak.workerd = Math.max(peak.workerd, now.workerd);
    peak.media = Math.max(peak.media, now.media);
    peak.total = Math.max(peak.total, now.workerd + now.media);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
