/**
 * The market program's reference implementation for the embedded cluster: dispatches on the
 * 8-byte Anchor discriminator to one processor per instruction (@pmx/programs' docs/programs.md).
 */
import type { PublicKey } from '@solana/web3.js';
import type { ProgramHandler } from '../../program-runtime.js';
import {
  BUY_DISCRIMINATOR,
  CANCEL_MARKET_DISCRIMINATOR,
  CLAIM_FEES_DISCRIMINATOR,
  CLAIM_PROTOCOL_FEES_DISCRIMINATOR,
  CREATE_MARKET_DISCRIMINATOR,
  INIT_MINTS_DISCRIMINATOR,
  INITIALIZE_DISCRIMINATOR,
  MARKET_PROGRAM_ID,
  REDEEM_DISCRIMINATOR,
  RESOLVE_DISCRIMINATOR,
  SELL_DISCRIMINATOR,
} from '@pmx/programs';
import { processClaimProtocolFees } from './claim-protocol-fees.processor.js';
import { processCreateMarket } from './create-market.processor.js';
import { processCancelMarket, processClaimFees, processResolve } from './creator.processors.js';
import { fail } from './guard.js';
import { processInitMints } from './init-mints.processor.js';
import { processInitialize } from './initialize.processor.js';
import { processRedeem } from './redeem.processor.js';
import { processBuy, processSell } from './trade.processor.js';
import type { Processor } from './types.js';

const ROUTES: [Buffer, string, Processor][] = [
  [INITIALIZE_DISCRIMINATOR, 'Initialize', processInitialize],
  [CREATE_MARKET_DISCRIMINATOR, 'CreateMarket', processCreateMarket],
  [INIT_MINTS_DISCRIMINATOR, 'InitMints', processInitMints],
  [BUY_DISCRIMINATOR, 'Buy', processBuy],
  [SELL_DISCRIMINATOR, 'Sell', processSell],
  [RESOLVE_DISCRIMINATOR, 'Resolve', processResolve],
  [REDEEM_DISCRIMINATOR, 'Redeem', processRedeem],
  [CLAIM_FEES_DISCRIMINATOR, 'ClaimFees', processClaimFees],
  [CLAIM_PROTOCOL_FEES_DISCRIMINATOR, 'ClaimProtocolFees', processClaimProtocolFees],
  [CANCEL_MARKET_DISCRIMINATOR, 'CancelMarket', processCancelMarket],
];

export function createMarketProgramHandler(options: { programId?: PublicKey } = {}): ProgramHandler {
  const programId = options.programId ?? MARKET_PROGRAM_ID;
  return {
    programId,
    name: 'market',
    execute(ix, ctx) {
      if (ix.data.length < 8) fail('InstructionFallbackNotFound');
      const tag = ix.data.subarray(0, 8);
      const route = ROUTES.find(([d]) => d.equals(tag));
      if (!route) fail('InstructionFallbackNotFound');
      ctx.log(`Instruction: ${route[1]}`);
      route[2](ix, ctx, programId);
    },
  };
}
