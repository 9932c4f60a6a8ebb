/**
 * The exchange program's reference implementation for the embedded cluster: dispatches on the
 * 8-byte Anchor discriminator (@pmx/programs' docs/programs.md, "Exchange program").
 */
import type { PublicKey } from '@solana/web3.js';
import type { ProgramHandler } from '../../program-runtime.js';
import { EXCHANGE_IX, EXCHANGE_PROGRAM_ID } from '@pmx/programs';
import { fail } from './guard.js';
import { processMerge, processRedeem, processSplit } from './market-ops.processors.js';
import {
  processCreateMarket,
  processInitialize,
  processPause,
  processResolve,
  processResume,
  processSetFees,
  type Processor,
} from './operator.processors.js';
import { processSettle } from './settle.processor.js';
import { processDeposit, processWithdraw } from './wallet.processors.js';

const ROUTES: [Buffer, string, Processor][] = [
  [EXCHANGE_IX.initialize, 'Initialize', processInitialize],
  [EXCHANGE_IX.setFees, 'SetFees', processSetFees],
  [EXCHANGE_IX.createMarket, 'CreateMarket', processCreateMarket],
  [EXCHANGE_IX.pauseMarket, 'PauseMarket', processPause],
  [EXCHANGE_IX.resumeMarket, 'ResumeMarket', processResume],
  [EXCHANGE_IX.resolveMarket, 'ResolveMarket', processResolve],
  [EXCHANGE_IX.deposit, 'Deposit', processDeposit],
  [EXCHANGE_IX.withdraw, 'Withdraw', processWithdraw],
  [EXCHANGE_IX.split, 'Split', processSplit],
  [EXCHANGE_IX.merge, 'Merge', processMerge],
  [EXCHANGE_IX.redeem, 'Redeem', processRedeem],
  [EXCHANGE_IX.settle, 'Settle', processSettle],
];

export function createExchangeProgramHandler(options: { programId?: PublicKey } = {}): ProgramHandler {
  const programId = options.programId ?? EXCHANGE_PROGRAM_ID;
  return {
    programId,
    name: 'exchange',
    execute(ix, ctx) {
      if (ix.data.length < 8) fail('InstructionFallbackNotFound');
      const route = ROUTES.find(([d]) => d.equals(ix.data.subarray(0, 8)));
      if (!route) fail('InstructionFallbackNotFound');
      ctx.log(`Instruction: ${route[1]}`);
      route[2](ix, ctx, programId);
    },
  };
}
