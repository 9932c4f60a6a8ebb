/**
 * The persisted outbound-transaction mechanism shared by every feature that moves platform money:
 * one sender over the builders all features contribute (`Feature.outboundBuilders`, keyed by
 * purpose), its `outbound.send` / `outbound.resume` processors, and the resume schedule.
 */
import { outboundResumeProcessor, resumeUnfinished } from '../../jobs/processors/outbound/outbound-resume.processor.js';
import { outboundSendProcessor } from '../../jobs/processors/outbound/outbound-send.processor.js';
import { OutboundSender } from '../services/outbound/outbound-sender.js';
import type { OutboundBuilders } from '../services/outbound/outbound.types.js';
import type { Feature, FeatureContext } from './feature.js';

/** Unfinished intents untouched for this long are re-enqueued by the resume schedule. */
const RESUME_IDLE_MS = 10_000;

export function outboundFeature(ctx: FeatureContext, features: Feature[]): Feature {
  const builders: OutboundBuilders = {};
  for (const feature of features) {
    for (const [purpose, builder] of Object.entries(feature.outboundBuilders ?? {})) {
      if (builders[purpose]) throw new Error(`outbound purpose ${purpose} is registered twice (${feature.name})`);
      builders[purpose] = builder;
    }
  }
  const sender = new OutboundSender(ctx.db, ctx.chain.client, builders, ctx.log.child({ feature: 'outbound' }), { stopping: ctx.stopping });
  return {
    name: 'outbound',
    processors: {
      'outbound.send': outboundSendProcessor(sender),
      'outbound.resume': outboundResumeProcessor(ctx.db, ctx.queues, RESUME_IDLE_MS),
    },
    async schedules() {
      // A restarted daemon resumes at once (idle 0), then the schedule keeps watching.
      await resumeUnfinished(ctx.db, ctx.queues, 0);
      await ctx.queues.schedule('outbound-resume', 'outbound.resume', { scheduledBy: 'outbound' }, ctx.config.outboundResumeMs);
    },
  };
}
