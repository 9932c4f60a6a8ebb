/**
 * The closing line of an in-process A/B bench that alternates two trees (ledger-ab-cpu.ts,
 * send-confirm-ab-cpu.ts): each tree's median µs and the median of the rounds' paired ratios
 * (this / other), as one JSON line.
 */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** `other` and `self` are the two trees' µs per round, paired by index. */
export function abSummary(otherRoot: string, other: number[], self: number[]): string {
  const ratios = self.map((x, i) => x / other[i]!);
  return JSON.stringify({
    other: otherRoot,
    otherMedian: +median(other).toFixed(1),
    thisMedian: +median(self).toFixed(1),
    ratioMedian: +median(ratios).toFixed(3),
    ratios: ratios.map((x) => +x.toFixed(3)),
  });
}
