/** The settle instruction's error codes (6040–6059), merged into EXCHANGE_ERRORS. */
export const SETTLE_ERRORS = {
  FillAlreadySettled: { code: 6040, message: 'The fill has a receipt: it settled before' },
  OrderSignatureMissing: { code: 6041, message: "No Ed25519 instruction of this transaction proves the owner's signature of the order" },
  InvalidOrderMessage: { code: 6042, message: 'The signed text is not "PMX Order:\\n" + lowercase hex of a valid 92-byte order message' },
  OrderMismatch: { code: 6043, message: "The order account holds another message for this owner and nonce, or is not the order's address" },
  WrongMarket: { code: 6044, message: 'The order is for another market' },
  InvalidFillType: { code: 6045, message: 'The two orders cannot fill each other (sides and outcomes)' },
  SelfTrade: { code: 6046, message: 'Both orders belong to the same owner' },
  PriceNotCrossing: { code: 6047, message: "The maker's price is beyond the taker's limit" },
  OrderOverfilled: { code: 6048, message: 'The fill exceeds what the order has left' },
  OrderExpired: { code: 6049, message: 'The order expired' },
  InsufficientBalance: { code: 6050, message: 'A smart wallet lacks the USDC or tokens the fill needs' },
  LimitExceeded: { code: 6051, message: "The fill would pay or charge an order beyond its signed limit's rounding allowance" },
  DuplicateOrder: { code: 6052, message: 'An order is listed twice in one settle instruction' },
} as const;

export type SettleErrorName = keyof typeof SETTLE_ERRORS;
