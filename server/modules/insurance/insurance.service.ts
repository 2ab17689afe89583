// The insurance plans offered for one order: each plan with the days
// suggested from the trip (the product's stay, brought into the plan's
// range) and what that costs for every applicant of the order.
import type { Kysely } from 'kysely';
import type { InsurancePlanListResult } from '../../../common/contracts/insurance.ts';
import { clampDays, insuranceAmount, tripDays } from '../../../common/insurance.ts';
import type { Database } from '../../db/schema.ts';
import type { Customer } from '../../platform/principal.ts';
import { createOrderLifecycle } from '../order/lifecycle.ts';
import { createInsuranceRepository, type InsurancePlanRow } from './insurance.repository.ts';

export function createInsuranceService(db: Kysely<Database>, deps: { now: () => number }) {
  const repo = createInsuranceRepository(db);
  const lifecycle = createOrderLifecycle(db, deps);

  return {
    /** A plan that can be bought now (the confirm step's snapshot); undefined when missing or withdrawn. */
    planOnSale(insurancePlanId: number): Promise<InsurancePlanRow | undefined> {
      return repo.findOnSale(insurancePlanId);
    },

    async planList(customer: Customer, userOrderId: number): Promise<InsurancePlanListResult> {
      // Read like every step reads its order: an unpaid order past its 24 h is expired first.
      const order = await lifecycle.current(customer, userOrderId);
      const [plans, stay] = await Promise.all([repo.onSale(), repo.stayDays(order.visa_product_id)]);
      const trip = tripDays(stay);
      return {
        start_date: order.departure_date,
        trip_days: trip,
        applicant_count: order.applicant_count,
        plans: plans.map((plan) => {
          const days = clampDays(trip, plan);
          return {
            insurance_plan_id: plan.insurance_plan_id,
            name: plan.name,
            company: plan.company,
            description: plan.description,
            price_per_day: plan.price_per_day,
            min_days: plan.min_days,
            max_days: plan.max_days,
            items: plan.items,
            suggested_days: days,
            amount: insuranceAmount(plan.price_per_day, days, order.applicant_count),
          };
        }),
      };
    },
  };
}

export type InsuranceService = ReturnType<typeof createInsuranceService>;
