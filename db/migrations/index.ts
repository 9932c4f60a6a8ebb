/**
 * The ordered list of migrations. Listed explicitly (no directory scanning) so that a bundled or
 * compiled daemon carries exactly the migrations it was built with.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_family_a.js';
import * as m0003 from './0003_family_b.js';
import * as m0004 from './0004_family_a_money.js';
import * as m0005 from './0005_family_c.js';
import * as m0009 from './0009_catalog_perf.js';
import * as m0010 from './0010_clob_give_back.js';
import * as m0011 from './0011_clob_settlement_indexes.js';
import * as m0012 from './0012_clob_min_order_size.js';
import * as m0013 from './0013_clob_cancel_all_uses.js';
import * as m0014 from './0014_clob_price_candles.js';
import * as m0015 from './0015_family_a_x402_standard.js';
import * as m0016 from './0016_operator_audit.js';
import * as m0018 from './0018_console_samples.js';
import * as m0020 from './0020_daemon_node_beats.js';
import * as m0022 from './0022_operators.js';
import * as m0023 from './0023_clob_heartbeats.js';
import * as m0024 from './0024_clob_fills_batch_idx.js';
import * as m0025 from './0025_clob_resting_owner_idx.js';
import * as m0026 from './0026_clob_placement_indexes.js';

export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_family_a': m0002,
  '0003_family_b': m0003,
  '0004_family_a_money': m0004,
  '0005_family_c': m0005,
  '0009_catalog_perf': m0009,
  '0010_clob_give_back': m0010,
  '0011_clob_settlement_indexes': m0011,
  '0012_clob_min_order_size': m0012,
  '0013_clob_cancel_all_uses': m0013,
  '0014_clob_price_candles': m0014,
  '0015_family_a_x402_standard': m0015,
  '0016_operator_audit': m0016,
  '0018_console_samples': m0018,
  '0020_daemon_node_beats': m0020,
  '0022_operators': m0022,
  '0023_clob_heartbeats': m0023,
  '0024_clob_fills_batch_idx': m0024,
  '0025_clob_resting_owner_idx': m0025,
  '0026_clob_placement_indexes': m0026,
};
