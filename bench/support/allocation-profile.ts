/**
 * The bytes a window of this process allocated, by function: V8's sampling heap profiler over
 * the inspector, keeping the samples of objects that GC already collected (by default it keeps
 * only what is still alive), so the result is what the window allocated, garbage included.
 * Allocation does not move with the machine's load as time does: a drain's bytes a fill is the
 * steadiest figure of what it costs the GC (issue 31, the drain's minor GCs).
 */
import { Session } from 'node:inspector/promises';
import { frameName } from './profile-summary.js';

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

export async function startAllocationProfile(
  samplingInterval = 32 * 1024,
): Promise<{ stop(top?: number): Promise<{ totalBytes: number; top: string[] }> }> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return {
    async stop(top = 20) {
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SamplingNode } };
      session.disconnect();
      const bySite = new Map<string, number>();
      let totalBytes = 0;
      const walk = (node: SamplingNode, caller: string) => {
        const name = frameName(node.callFrame);
        if (node.selfSize > 0) {
          const key = `${name} < ${caller}`;
          bySite.set(key, (bySite.get(key) ?? 0) + node.selfSize);
          totalBytes += node.selfSize;
        }
        for (const child of node.children) walk(child, name);
      };
      walk(profile.head, '');
      const ranked = [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top);
      return { totalBytes, top: ranked.map(([site, bytes]) => `${((bytes / totalBytes) * 100).toFixed(1).padStart(5)} %  ${site}`) };
    },
  };
}
