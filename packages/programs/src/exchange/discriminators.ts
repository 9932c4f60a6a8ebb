/** The exchange program's Anchor discriminators (docs/programs.md lists the hex values). */
import { accountDiscriminator, instructionDiscriminator } from '../shared/discriminator.js';

export const EXCHANGE_IX = {
  initialize: instructionDiscriminator('initialize'),
  setFees: instructionDiscriminator('set_fees'),
  createMarket: instructionDiscriminator('create_market'),
  pauseMarket: instructionDiscriminator('pause_market'),
  resumeMarket: instructionDiscriminator('resume_market'),
  resolveMarket: instructionDiscriminator('resolve_market'),
  deposit: instructionDiscriminator('deposit'),
  withdraw: instructionDiscriminator('withdraw'),
  split: instructionDiscriminator('split'),
  merge: instructionDiscriminator('merge'),
  redeem: instructionDiscriminator('redeem'),
  settle: instructionDiscriminator('settle'),
} as const;

export const EXCHANGE_ACCOUNT = {
  config: accountDiscriminator('ExchangeConfig'),
  market: accountDiscriminator('OrderbookMarket'),
  escrow: accountDiscriminator('UserEscrow'),
  fillReceipt: accountDiscriminator('FillReceipt'),
  orderState: accountDiscriminator('OrderState'),
} as const;
