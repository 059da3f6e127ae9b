/**
 * @module bench/support/service-rss
 * Resident memory of a running `npm start` service (workerd, and the media service with its
 * children), sampled from /proc.
 */
import { readFileSync } from 'node:fs';
import { serviceProcesses, type ServicePart } from './service-procs.js';

/** RSS in MiB per part of the service, now. */
export function serviceRssMiB(root: string): Record<'workerd' | 'media', number> {
  const kb: Record<ServicePart, number> = { workerd: 0, wrangler: 0, media: 0 };
  for (const p of serviceProcesses(root)) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'));
      if (m) kb[p.part] += Number(m[1]);
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
