/**
 * Where market reads get each book's best bid, best ask and last price: the matcher's published
 * snapshot (see the orderbook read model). Kept behind this port so reads never scan orders.
 */
import { EMPTY_TOP, type BookTopView } from './market.presenter.js';

export interface BookTops {
  top(marketId: string): Promise<BookTopView>;
}

/** Before any book exists: every price null. */
export const NO_BOOKS: BookTops = { top: async () => EMPTY_TOP };
