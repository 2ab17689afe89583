// The confirm step's call: the customer fixes the return address and the
// insurance (or none) and the draft becomes payable (pending_payment).

export interface OrderConfirmInput {
  user_order_id: number;
  /** A return or peer address of the enterprise's book; the order keeps a copy. */
  address_id: number;
  /** null: no insurance. */
  insurance_plan_id: number | null;
  /** Within the plan's min_days–max_days; ignored without a plan. */
  insurance_days?: number | null;
  /** Applicants of this order covered by the plan; at least one with a plan. */
  insured_applicant_ids?: number[];
  /** The 《保险条款》 checkbox; must be true with a plan. */
  protocol_agreed?: boolean;
}

export interface OrderConfirmResult {
  user_order_id: number;
  status: 'pending_payment';
  /** cents */
  product_amount: number;
  insurance_amount: number;
  discount_amount: number;
  /** product_amount + insurance_amount − discount_amount: what the payment charges. */
  total_amount: number;
  /** Unchanged by confirming: creation + 24 h. */
  expires_at: number | null;
}
